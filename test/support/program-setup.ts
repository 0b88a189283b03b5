/**
 * The test run's global set-up: bundles the node program once (program-bundle.ts) for every
 * node the end-to-end tests start (node-process.ts reads SHOAL_TEST_PROGRAM), so that each
 * node starts from plain JavaScript instead of compiling its source through tsx.
 */
import { bundledProgram } from '../../packages/coordinator/src/program-bundle.ts';

export default function setup(): void {
  process.env.SHOAL_TEST_PROGRAM = bundledProgram();
}
