// PARTITION mesh split: coverage, volumes, interface nodes, glue chains, determinism, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/errors.h"
#include "body/fem/mesh_partition.h"
#include "body/fe_mesh.h"

namespace solfec::body::fem {
namespace {

geometry::Mesh Box(int nx, int ny, int nz) {
  return testing::HexMeshShape(Vec3::Zero(), Vec3(2.0, 1.0, 0.5), nx, ny, nz).meshes[0];
}

// Part elements connected through shared faces.
bool PartConnected(const geometry::Mesh& m) {
  std::vector<int> xadj, adj;
  ElementDualGraph(m, xadj, adj);
  std::vector<char> seen(m.elements.size(), 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  size_t count = 1;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int k = xadj[v]; k < xadj[v + 1]; ++k)
      if (!seen[adj[k]]) seen[adj[k]] = 1, ++count, stack.push_back(adj[k]);
  }
  return count == m.elements.size();
}

TEST(MeshPartition, DualGraphOfAGridLinksFaceNeighboursOnly) {
  const geometry::Mesh m = Box(3, 2, 1);
  std::vector<int> xadj, adj;
  ElementDualGraph(m, xadj, adj);
  // 3 x 2 x 1 grid: 3 * 1 + 2 * 2 = 7 shared faces, each listed twice.
  EXPECT_EQ(adj.size(), 14u);
  int corner = 0;
  for (size_t e = 0; e + 1 < xadj.size(); ++e) corner += xadj[e + 1] - xadj[e] == 2;
  EXPECT_EQ(corner, 4);  // the 4 corner columns have 2 neighbours, the middle ones 3
}

TEST(MeshPartition, PartsCoverEveryElementOnceWithTheParentVolume) {
  if (!MetisAvailable()) GTEST_SKIP() << "no METIS in this build";
  const geometry::Mesh m = Box(8, 4, 4);  // 128 elements
  const int parts = 5;
  const auto element_part = PartitionElements(m, parts);
  const MeshPartition s = SplitMesh(m, element_part, parts);
  ASSERT_EQ(s.parts.size(), 5u);
  std::vector<int> seen(m.elements.size(), 0);
  double volume = 0.0;
  size_t node_copies = 0, faces = 0;
  for (int p = 0; p < parts; ++p) {
    const MeshPart& part = s.parts[p];
    ASSERT_FALSE(part.elements.empty());
    // METIS balance (load imbalance 1.001 recursive, 1.03 k-way) plus one element: <= 27.
    EXPECT_LE(part.elements.size(), 27u);
    for (int e : part.elements) {
      ++seen[e];
      EXPECT_EQ(element_part[e], p);
    }
    EXPECT_NO_THROW(part.mesh.Validate("TEST"));
    EXPECT_TRUE(PartConnected(part.mesh));  // METIS_OPTION_CONTIG
    volume += part.mesh.ComputeMassProperties().volume;
    node_copies += part.nodes.size();
    faces += part.mesh.surface_faces.size();
    for (size_t a = 0; a < part.nodes.size(); ++a)
      EXPECT_EQ(part.mesh.nodes[a], m.nodes[part.nodes[a]]);
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
  EXPECT_NEAR(volume, 1.0, 1e-12);  // 2 x 1 x 0.5 box: sums of element volumes
  EXPECT_EQ(faces, m.surface_faces.size());  // each listed boundary face once
  // Interface nodes: every duplicated copy is one glue row triple (k-1 per node of k parts).
  ASSERT_GT(node_copies, m.nodes.size());
  EXPECT_EQ(s.glue.size(), node_copies - m.nodes.size());
  std::map<int, std::vector<const GluePair*>> by_node;
  for (const GluePair& g : s.glue) {
    EXPECT_LT(g.part1, g.part2);
    EXPECT_EQ(s.parts[g.part1].nodes[g.node1], g.parent_node);
    EXPECT_EQ(s.parts[g.part2].nodes[g.node2], g.parent_node);
    by_node[g.parent_node].push_back(&g);
  }
  for (const auto& [node, chain] : by_node)  // chain p1-p2, p2-p3, ...: links consecutive
    for (size_t k = 0; k + 1 < chain.size(); ++k) EXPECT_EQ(chain[k]->part2, chain[k + 1]->part1);
}

TEST(MeshPartition, SameMeshGivesTheSamePartition) {
  if (!MetisAvailable()) GTEST_SKIP() << "no METIS in this build";
  const geometry::Mesh m = Box(6, 3, 2);
  EXPECT_EQ(PartitionElements(m, 4), PartitionElements(m, 4));  // fixed METIS seed
}

TEST(MeshPartition, OnePartPerElementLeavesNoPartEmpty) {
  if (!MetisAvailable()) GTEST_SKIP() << "no METIS in this build";
  const geometry::Mesh m = testing::TetCubeShape(Vec3::Zero(), 1.0).meshes[0];
  const auto element_part = PartitionElements(m, 6);
  EXPECT_EQ(std::set<int>(element_part.begin(), element_part.end()).size(), 6u);
  const MeshPartition s = SplitMesh(m, element_part, 6);
  // 6 tets around the diagonal 0-6: nodes 0 and 6 are in all 6 parts (5 glue pairs each),
  // the 6 others in 2 tets each (1 pair each).
  EXPECT_EQ(s.glue.size(), 2u * 5u + 6u);
}

TEST(MeshPartition, OnePartIsTheWholeMeshWithoutGlue) {
  const geometry::Mesh m = Box(2, 2, 2);
  const MeshPartition s = SplitMesh(m, PartitionElements(m, 1), 1);
  EXPECT_EQ(s.parts[0].mesh.nodes.size(), m.nodes.size());
  EXPECT_TRUE(s.glue.empty());
}

TEST(MeshPartition, PartCountOutOfRangeIsAnInputErrorNamingTheArgument) {
  const geometry::Mesh m = Box(2, 1, 1);
  for (int parts : {0, -1, 3}) {
    try {
      PartitionElements(m, parts);
      FAIL() << "parts = " << parts;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("PARTITION:"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("(argument 'parts')"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace solfec::body::fem
