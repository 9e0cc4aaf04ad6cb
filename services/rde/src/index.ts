export { MODULES } from './modules';
export { resolveTargets, TargetError } from './targets';
export { startModules, type StartedProcess } from './start';
