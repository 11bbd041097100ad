// Reference ways of finding the node-face pairs of a node-to-face search (its stage 2, a
// contact::PairFinder): the paper's classic BVH and brute force, with and without the box
// test. They find exactly the contacts of the library's three-stage search, by other means:
// the tests check the search against them (node_to_face_test.cc) and the contact search
// benchmark times each (tests/benchmarks/run_contact_search.py, through the module of
// tests/benchmarks/contact_search_reference.cc).
#pragma once

#include <functional>

#include "contact/contact_surface.h"
#include "contact/node_to_face.h"
#include "contact/surface_bvh.h"

namespace solfec::contact::reference {

// The paper's "classic" BVH (section 5.2, Fig. 4 (a)): one hierarchy of (inflated) face boxes
// per surface, slave faces against master faces (the same Algorithm 1 traversal), and every
// node of each overlapping slave face against the master face (a node once per overlapping
// face around it: the same node-face pair repeatedly).
class ClassicBvh final : public PairFinder {
 public:
  long Pairs(ContactSurface& master, ContactSurface& slave,
             const std::function<void(int, int)>& pair) const override {
    master.FitFaces();
    slave.FitFaces();
    const std::vector<int>& slot = slave.slave_slots();
    return TraversePairs(slave.face_bvh(), master.face_bvh(), [&](int sf, int f) {
      const SurfaceFace& face = slave.faces()[sf];
      for (int a = 0; a < face.size; ++a) pair(slot[face.vertices[a]], f);
    });
  }
};

// Every slave node against every master face, every pair of surfaces (no octree); `boxed`:
// the local test first rejects the node outside the face's inflated box (a rejection the
// rest implies).
class BruteForce final : public PairFinder {
 public:
  explicit BruteForce(bool boxed = false) : boxed_(boxed) {}
  bool exhaustive() const override { return true; }
  bool box_check() const override { return boxed_; }
  long Pairs(ContactSurface& master, ContactSurface& slave,
             const std::function<void(int, int)>& pair) const override {
    const int nk = static_cast<int>(slave.slave_nodes().size());
    const int nf = static_cast<int>(master.faces().size());
    for (int k = 0; k < nk; ++k)
      for (int f = 0; f < nf; ++f) pair(k, f);
    return 0;  // no hierarchy
  }

 private:
  bool boxed_;
};

}  // namespace solfec::contact::reference
