// The lines `pnpm pack:all` prints, from the tarball of each package name. Tested in
// examples/release-check/test/pack-lines.test.ts; run for real from an empty folder before a release.

/** What each kind of project installs together, so the @svc versions match (the tarballs depend on each other). */
export const installs = {
  backend: ['@svc/types', '@svc/server'],
  browser: ['@svc/types', '@svc/browser'],
  kit: ['@svc/types', '@svc/server', '@svc/browser', '@svc/tracker', '@svc/reference-server', '@svc/cli'],
  /** The reference server alone, with the packages it depends on (not on the npm registry yet either). */
  server: ['@svc/types', '@svc/tracker', '@svc/reference-server'],
};

/** `npm install …` of the tarballs. */
export const installLine = (tarball, names, dev = false) => `npm install ${dev ? '--save-dev ' : ''}${names.map(tarball).join(' ')}`;

/**
 * Runs the reference server from any folder, an empty one included: npx installs the tarballs together in its
 * cache and runs the package's one bin. Once published, `npx @svc/reference-server` does the same.
 */
export const npxLine = (tarball, args = '--help') =>
  `npx --yes ${installs.server.map((name) => `--package=${tarball(name)}`).join(' ')} svc-reference-server ${args}`;
