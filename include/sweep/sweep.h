/* sweep — exact, fast, robust sweep tests, ray casts, overlap and distance
 * queries. Include this one header to get the whole public API.
 *
 * Conventions (DESIGN.md §2): shape A moves by d for t in [0, 1], B is
 * static; normals are unit and point from B toward A; touching counts as
 * contact; initial overlap gives t = 0, overlapping = true and the
 * penetration depth. sw_real is float, or double with SWEEP_DOUBLE. */
#ifndef SWEEP_SWEEP_H
#define SWEEP_SWEEP_H

#include "sweep/config.h"
#include "sweep/math.h"
#include "sweep/shapes.h"
#include "sweep/hull.h"
#include "sweep/mesh.h"
#include "sweep/hit.h"
#include "sweep/distance.h"
#include "sweep/overlap.h"
#include "sweep/raycast.h"
#include "sweep/sphere_sweep.h"
#include "sweep/capsule_sweep.h"
#include "sweep/containment.h"
#include "sweep/dispatch.h"
#include "sweep/batch.h"
#include "sweep/convex.h"
#include "sweep/scene.h"

#endif
