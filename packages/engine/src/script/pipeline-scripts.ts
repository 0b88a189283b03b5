/** The scripts of pipeline aggregations, run by the coordinator's reduce with the engine's Painless. */
import type { PipelineScripts } from '@shoal/protocol';
import type { ScriptContext } from './frame.ts';
import { compileSpec } from './script.ts';

export const pipelineScripts: PipelineScripts = {
  run(script, params, values, doubles) {
    const ctx: ScriptContext = { params };
    if (values !== undefined) ctx.values = values;
    if (doubles !== undefined) ctx.doubleParams = doubles;
    return compileSpec(script).run(ctx);
  },
};
