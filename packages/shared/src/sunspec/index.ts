export * from './models';
export * from './codec';
export * from './templates';
export * from './discovery';
