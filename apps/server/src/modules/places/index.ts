export { createPlaces, type Places } from './places.module.js';
