import { writeFile } from 'node:fs/promises';
import { generateSource, outputPath } from './generate-source';

await writeFile(outputPath, await generateSource());
console.log(`wrote ${outputPath.pathname}`);
