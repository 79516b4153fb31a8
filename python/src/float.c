/* The float module, sweep._float. */
#include "module.c"
