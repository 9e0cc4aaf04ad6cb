/** Lines a child prints to tell its parent it reached the point where the parent kills it. */
export const HANDLED = 'handled';
export const WRITTEN = 'written';
