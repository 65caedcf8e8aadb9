#!/usr/bin/env node
// The main job (`pnpm start`): for now the reference server itself; the demo program and storefront come with the examples.
import './server';
