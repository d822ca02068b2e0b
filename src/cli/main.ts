#!/usr/bin/env node
// First: it sets a V8 flag that must be in place before the program's modules run (tiering.ts).
import './tiering.js';
import { runFatecraft } from './run.js';

/** The command line; what each exit code means: src/cli/run.ts. */
const code = await runFatecraft(process.argv);
if (code !== undefined) process.exitCode = code;
