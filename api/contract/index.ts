/** The REST contract shared by api/ (validation) and ui/ (response parsing). */
export * from './common';
export * from './auth';
export * from './projects';
export * from './models';
export * from './reference';
export * from './sections';
export * from './geometry';
export * from './admin';
export * from './comments';
export * from './compare';
export * from './colouring';
export * from './approval';
export * from './shell';
export * from './settings';
export * from './locations';
export * from './scheduling';
export * from './tags';
