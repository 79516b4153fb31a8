/* Mesh files (tools/meshio, assimp) for the double module. */
#define SWEEP_DOUBLE
#include "../../tools/meshio/meshio.c"
