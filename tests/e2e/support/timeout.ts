// Each test of the end-to-end suite runs several CLI operations, each of which starts the engine, the
// program and the dynamic-provider process.
jest.setTimeout(10 * 60 * 1000);
