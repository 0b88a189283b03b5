export { type ClusterConfig, ConfigError, loadClusterConfig, type NodeConfig, nodeConfig } from './config.ts';
export { createLogger } from './logger.ts';
export { type StartedNode, startNode } from './node.ts';
export { NODE_V8_FLAGS } from './node-flags.ts';
