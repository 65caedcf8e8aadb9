#!/usr/bin/env node
import { cac } from 'cac';

const cli = cac('svc');
cli.help();
cli.version('0.1.0');
cli.parse();
