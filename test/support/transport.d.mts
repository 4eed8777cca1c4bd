export * from '../../transport/undici.js';
