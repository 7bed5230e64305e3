#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so `npx arbiter` works right after `npm install`
// with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
