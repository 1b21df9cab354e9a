#!/usr/bin/env node
// The CLI runs the compiled build (npm install runs `prepare`, which compiles src/ to dist/).
import { run } from '../dist/main.js';

await run(process.argv);
