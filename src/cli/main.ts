#!/usr/bin/env node
import { runFatecraft } from './run.js';

/** The command line; what each exit code means: src/cli/run.ts. */
const code = await runFatecraft(process.argv);
if (code !== undefined) process.exitCode = code;
