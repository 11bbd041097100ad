// Contact sparsification (manual Algorithm 6.1): drops redundant new contacts.
#include "contact/sparsify.h"

#include <algorithm>
#include <utility>

namespace solfec::contact {

namespace {

std::pair<int, int> BodyPair(const SparsifyItem& c) {
  return std::minmax(c.body1, c.body2);
}

// Piece of contact c on body `body` (c touches it).
int PieceOn(const SparsifyItem& c, int body) { return c.body1 == body ? c.piece1 : c.piece2; }

// Topological adjacency of two contacts between the same bodies: their pieces on either body
// are adjacent (for self-contact, in either pairing).
bool Adjacent(const SparsifyItem& x, const SparsifyItem& y, PieceAdjacency adjacent,
              const void* context) {
  if (!adjacent) return false;
  if (x.body1 == x.body2) {
    return adjacent(context, x.body1, x.piece1, y.piece1) ||
           adjacent(context, x.body1, x.piece2, y.piece2) ||
           adjacent(context, x.body1, x.piece1, y.piece2) ||
           adjacent(context, x.body1, x.piece2, y.piece1);
  }
  return adjacent(context, x.body1, x.piece1, PieceOn(y, x.body1)) ||
         adjacent(context, x.body2, x.piece2, PieceOn(y, x.body2));
}

}  // namespace

std::vector<bool> Sparsify(const std::vector<SparsifyItem>& items, const SparsifyOptions& opt,
                           PieceAdjacency adjacent, const void* context) {
  const int n = static_cast<int>(items.size());
  std::vector<bool> keep(n, true);
  for (int i = 0; i < n; ++i)
    if (items[i].is_new && items[i].area < opt.minarea) keep[i] = false;

  // Contacts grouped by their (unordered) pair of bodies; group[i] = range in `order`.
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    const auto bi = BodyPair(items[i]), bj = BodyPair(items[j]);
    return bi < bj || (bi == bj && i < j);
  });
  std::vector<std::pair<int, int>> group(n);
  for (int k = 0; k < n;) {
    int e = k + 1;
    while (e < n && BodyPair(items[order[e]]) == BodyPair(items[order[k]])) ++e;
    for (int l = k; l < e; ++l) group[order[l]] = {k, e};
    k = e;
  }

  // Algorithm 6.1 in input order: a removed contact no longer removes others.
  const double mindist2 = opt.mindist * opt.mindist;
  for (int i = 0; i < n; ++i) {
    const SparsifyItem& x = items[i];
    if (!x.is_new || !keep[i]) continue;
    for (int k = group[i].first; k < group[i].second; ++k) {
      const int j = order[k];
      if (j == i || !keep[j]) continue;
      const SparsifyItem& y = items[j];
      if (x.area < opt.threshold * y.area && Adjacent(x, y, adjacent, context)) {
        keep[i] = false;
        break;
      }
      // Of two coincident new contacts the earlier one stays.
      if ((!y.is_new || j < i) && (x.point - y.point).squaredNorm() <= mindist2) {
        keep[i] = false;
        break;
      }
    }
  }
  return keep;
}

}  // namespace solfec::contact
