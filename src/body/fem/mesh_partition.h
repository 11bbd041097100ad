// PARTITION: splits a volume mesh into parts (METIS on the element dual graph) with duplicated
// interface nodes and the list of node pairs that glue the parts together.
#pragma once

#include <string>
#include <vector>

#include "geometry/mesh.h"

namespace solfec::body::fem {

// One part of a split mesh: its elements and nodes renumbered from 0; listed surface faces
// of the parent that lie on the part's elements keep their surface ids; the default surface
// id is the parent's (interface faces take it).
struct MeshPart {
  geometry::Mesh mesh;
  std::vector<int> elements;  // parent element of each part element (ascending)
  std::vector<int> nodes;     // parent node of each part node (ascending)
};

// A node shared by parts part1 < part2: node1 of part1 and node2 of part2 are the same
// parent node. A node shared by k parts p1 < ... < pk gives the chain (p1,p2), (p2,p3), ...,
// (pk-1,pk): k-1 pairs, no redundant rows.
struct GluePair {
  int part1 = 0, node1 = 0;
  int part2 = 0, node2 = 0;
  int parent_node = 0;
};

struct MeshPartition {
  std::vector<int> element_part;  // part of each parent element
  std::vector<MeshPart> parts;
  std::vector<GluePair> glue;
};

// True when this build links METIS (libmetis-dev).
bool MetisAvailable();

// Elements sharing a face (3 or 4 common nodes of an element face), CSR adjacency
// (xadj size num_elements + 1), neighbours in ascending order.
void ElementDualGraph(const geometry::Mesh& mesh, std::vector<int>& xadj,
                      std::vector<int>& adjncy);

// Part of each element (0 .. parts-1, every part non-empty): METIS on the dual graph with a
// fixed seed, recursive bisection up to 8 parts, k-way beyond (contiguous parts when the
// graph is connected); should METIS leave a part empty (tiny meshes), recursive coordinate
// bisection of the element centroids instead.
// Throws InputError naming `routine`: parts < 1 (argument 'parts'), parts > number of
// elements, or no METIS in this build (parts > 1).
std::vector<int> PartitionElements(const geometry::Mesh& mesh, int parts,
                                   const std::string& routine = "PARTITION");

// Splits the mesh by element_part (values 0 .. parts-1, each used) into parts and glue pairs.
MeshPartition SplitMesh(const geometry::Mesh& mesh, const std::vector<int>& element_part,
                        int parts);

}  // namespace solfec::body::fem
