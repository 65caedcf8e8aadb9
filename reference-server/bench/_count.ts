import { privateDatabase } from '../test/scale/databases';
import { benchTracking } from './tracking';
const db = privateDatabase('count_pg', 'postgres://postgres@127.0.0.1:5432/test');
try {
  const r = await benchTracking('postgres', db.url, { seconds: 4, connections: 50, nodeArgs: ['--require', '/tmp/scratch/count-pg.cjs'] });
  for (const p of r.pairs) console.log(p.route, p.server.rps.toFixed(0), p.server.cpuUsPerRequest.toFixed(0));
} finally { await db.dispose(); }
