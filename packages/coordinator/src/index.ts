export { type ClusterConfig, ConfigError, loadClusterConfig, type NodeConfig, nodeConfig } from './config.ts';
export { createLogger } from './logger.ts';
export { type StartedNode, startNode } from './node.ts';
export { NODE_V8_FLAGS } from './node-flags.ts';
export { programArgs } from './program-bundle.ts';
export { FILE_REALM_FOLDER } from './security/mount.ts';
