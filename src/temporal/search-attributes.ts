// Registered by the embedded dev server at start; defined beside the workflows that set them.
export { searchAttributeTypes as searchAttributes } from '../../workflows/search-attributes';
