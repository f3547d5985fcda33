#!/usr/bin/env node
// The published entry point; the CLI itself is compiled from src/cli.
import { runCli } from '../dist/src/cli/index.js'

process.exitCode = await runCli(process.argv)
