// PARTITION (manual 4.4): replaces a FINITE_ELEMENT body by mesh parts glued by GLUEPNT
// constraints, so that one large mesh can be spread over the ranks of solfec-mpi.
#pragma once

#include <vector>

#include "base/types.h"
#include "domain/domain.h"

namespace solfec::domain {

// Splits body `id` (form 'TL' or 'BC', shape = its MESH, no background mesh) into `parts`
// FeBodies (body/fem/mesh_partition.h) labelled "<label> PART1", ... ("PART1", ... without a
// label), added to `d` in part order (ascending ids), and deletes the body. Each part takes the
// parent's material (and APPLY_BULKMAT materials by volume id), form, scheme, damping,
// selfcontact flag, node positions and velocities, BODY_CHARS mass scaling, point FORCEs and
// PRESSUREs (on the parts that have the surface). Every node shared by parts p < q gets a
// GLUEPNT constraint with body1 = part p, body2 = part q, X1 = X2 = the node (a node shared
// by k parts: a chain of k-1). User constraints on the body move to the part whose element
// holds their referential point; its contacts are dropped (found again by the next step).
// Contact between parts is excluded: all pairs, or with selfcontact only the pairs sharing
// nodes. CONTACT_EXCLUDE_BODIES / _OBJECTS entries naming the body are carried over.
// Returns the part ids. Throws InputError naming PARTITION (nothing changed): no such body
// or not a plain mesh FINITE_ELEMENT body (argument 'body'), parts out of range (argument
// 'parts'), a FORCE callback on the body, or no METIS in the build.
std::vector<Id> PartitionBody(Domain& d, Id id, int parts);

}  // namespace solfec::domain
