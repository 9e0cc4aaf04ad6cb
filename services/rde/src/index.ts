export { MODULES } from './modules';
export { isAllInOne, resolveTargets, TargetError } from './targets';
export { startModules, type StartedProcess } from './start';
