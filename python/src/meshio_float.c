/* Mesh files (tools/meshio, assimp) for the float module. */
#include "../../tools/meshio/meshio.c"
