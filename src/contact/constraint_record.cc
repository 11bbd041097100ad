// Constraint record codec (constraint_record.h).
#include "contact/constraint_record.h"

namespace solfec::contact {

namespace {

void Put(std::vector<double>& out, const Vec3& v) { out.insert(out.end(), v.data(), v.data() + 3); }
Vec3 Get3(const double* p) { return Vec3(p[0], p[1], p[2]); }

}  // namespace

SourceColumns ColumnsOf(const ContactSource& s) {
  if (const NodeFace* nf = std::get_if<NodeFace>(&s)) return {-2 - nf->face, -2 - nf->node};
  const PiecePair& p = std::get<PiecePair>(s);
  return {p.piece1, p.piece2};
}

ContactSource SourceOfColumns(int piece1, int piece2) {
  if (piece2 <= -2) return NodeFace{-2 - piece2, -2 - piece1};
  return PiecePair{piece1, piece2};
}

ConstraintRecord RecordOf(const Constraint& c) {
  ConstraintRecord r;
  r.id = c.id;
  r.kind = c.kind;
  r.body1 = c.body1 ? c.body1->id() : kNoId;
  r.body2 = c.body2 ? c.body2->id() : kNoId;
  r.source = c.source;
  r.surf1 = c.surf1;
  r.surf2 = c.surf2;
  r.X1 = c.X1;
  r.X2 = c.X2;
  r.face1 = c.face1;
  r.point = c.point;
  r.point2 = c.point2;
  r.base = c.base;
  r.area = c.area;
  r.gap = c.gap;
  r.R = c.R;
  r.U = c.U;
  r.U_prev = c.U_prev;
  r.merit = c.merit;
  r.age = c.age;
  r.cohesive = c.cohesive;
  r.stroke = c.stroke;
  return r;
}

void SetState(const ConstraintRecord& r, Constraint& c) {
  c.point = r.point;
  c.point2 = r.point2;
  c.base = r.base;
  c.area = r.area;
  c.gap = r.gap;
  c.R = r.R;
  c.U = r.U;
  c.U_prev = r.U_prev;
  c.merit = r.merit;
  c.age = r.age;
  c.cohesive = r.cohesive;
  c.stroke = r.stroke;
}

void SetIdentityAndState(const ConstraintRecord& r, body::Body* body1, body::Body* body2,
                         Constraint& c) {
  c.id = r.id;
  c.kind = r.kind;
  c.body1 = body1;
  c.body2 = body2;
  c.source = r.source;
  c.surf1 = r.surf1;
  c.surf2 = r.surf2;
  c.X1 = r.X1;
  c.X2 = r.X2;
  c.face1 = r.face1;
  SetState(r, c);
}

// Layout: 0 id, 1 kind, 2 body1, 3 body2, 4 piece1, 5 piece2 (ColumnsOf), 6 surf1, 7 surf2, 8 X1, 11 X2,
// 14 point, 17 point2, 20 base (column-wise), 29 area, 30 gap, 31 R, 34 U, 37 U_prev,
// 40 merit, 41 age, 42 cohesive, 43 stroke, 44 face1 size, 45 face1 nodes, 49 face1 weights.
void AppendFlatRecord(const ConstraintRecord& r, std::vector<double>& out) {
  out.push_back(static_cast<double>(r.id));
  out.push_back(static_cast<double>(static_cast<int>(r.kind)));
  out.push_back(static_cast<double>(r.body1));
  out.push_back(static_cast<double>(r.body2));
  const SourceColumns columns = ColumnsOf(r.source);
  out.push_back(columns.piece1);
  out.push_back(columns.piece2);
  out.push_back(r.surf1);
  out.push_back(r.surf2);
  Put(out, r.X1);
  Put(out, r.X2);
  Put(out, r.point);
  Put(out, r.point2);
  out.insert(out.end(), r.base.data(), r.base.data() + 9);
  out.push_back(r.area);
  out.push_back(r.gap);
  Put(out, r.R);
  Put(out, r.U);
  Put(out, r.U_prev);
  out.push_back(r.merit);
  out.push_back(r.age);
  out.push_back(r.cohesive ? 1.0 : 0.0);
  out.push_back(r.stroke);
  out.push_back(r.face1.size);
  out.insert(out.end(), r.face1.nodes.begin(), r.face1.nodes.end());
  out.insert(out.end(), r.face1.weights.begin(), r.face1.weights.end());
}

ConstraintRecord ReadFlatRecord(const double* p) {
  ConstraintRecord r;
  r.id = static_cast<Id>(p[0]);
  r.kind = static_cast<ConstraintKind>(static_cast<int>(p[1]));
  r.body1 = static_cast<Id>(p[2]);
  r.body2 = static_cast<Id>(p[3]);
  r.source = SourceOfColumns(static_cast<int>(p[4]), static_cast<int>(p[5]));
  r.surf1 = static_cast<int>(p[6]);
  r.surf2 = static_cast<int>(p[7]);
  r.X1 = Get3(p + 8);
  r.X2 = Get3(p + 11);
  r.point = Get3(p + 14);
  r.point2 = Get3(p + 17);
  r.base = Eigen::Map<const Mat3>(p + 20);
  r.area = p[29];
  r.gap = p[30];
  r.R = Get3(p + 31);
  r.U = Get3(p + 34);
  r.U_prev = Get3(p + 37);
  r.merit = p[40];
  r.age = static_cast<int>(p[41]);
  r.cohesive = p[42] != 0.0;
  r.stroke = p[43];
  r.face1.size = static_cast<int>(p[44]);
  for (int a = 0; a < 4; ++a) {
    r.face1.nodes[a] = static_cast<int>(p[45 + a]);
    r.face1.weights[a] = p[49 + a];
  }
  return r;
}

}  // namespace solfec::contact
