/** Lines a child prints to tell its parent it reached the point where the parent kills it. */
export const HANDLED = 'handled';
export const WRITTEN = 'written';
export const READY = 'ready';
/** A concurrent writer's last line: how many of its writes took effect. */
export const done = (effective: number) => `done ${effective}`;
