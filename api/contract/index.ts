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
export * from './tags';
