/** /work/shared/data: the shared test data beside the checkout (read in place, never copied). */
export const sharedData = new URL('../../../../../shared/data/', import.meta.url)
