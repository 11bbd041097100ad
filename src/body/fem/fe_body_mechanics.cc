// Finite-element body mechanics: masses per element material, hyperelastic forces and
// tangent (Saint Venant-Kirchhoff, neo-Hookean, Blatz-Ko), point loads and pressures.
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include <Eigen/Eigenvalues>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/elements.h"
#include "body/fem/fe_body.h"
#include "material/hyperelastic.h"

namespace solfec::body {

namespace {

struct FacePoint {
  double r, s, w;
};

// Triangle: 3-point rule (exact for quadratics) on r, s >= 0, r + s <= 1; quadrilateral:
// 2 x 2 Gauss on [-1, 1]^2 (exact for the bilinear face's area vector).
const std::vector<FacePoint>& FaceRule(int n) {
  static const double g = 1.0 / std::sqrt(3.0);
  static const std::vector<FacePoint> kTri = {
      {1.0 / 6, 1.0 / 6, 1.0 / 6}, {2.0 / 3, 1.0 / 6, 1.0 / 6}, {1.0 / 6, 2.0 / 3, 1.0 / 6}};
  static const std::vector<FacePoint> kQuad = {{-g, -g, 1}, {g, -g, 1}, {g, g, 1}, {-g, g, 1}};
  return n == 3 ? kTri : kQuad;
}

}  // namespace

void FeBody::ComputeMass() {
  mass_diag_ = VecX::Zero(3 * num_nodes());
  bool uniform = true;
  for (const ElementData& ed : elements_) {
    const double rho = materials_[ed.material].density;
    uniform = uniform && rho == materials_[elements_[0].material].density;
    for (const GaussData& g : ed.gauss)
      for (int a = 0; a < ed.num_nodes; ++a)
        mass_diag_.segment<3>(3 * ed.nodes[a]).array() += rho * g.N[a] * g.dV;
  }
  const geometry::MassProperties mp = mesh_.ComputeMassProperties();
  volume_ = mp.volume;
  mass_scale_ = 1.0;
  if (uniform) {
    const double rho = materials_[elements_[0].material].density;
    mass_ = rho * mp.volume;
    center_ = mp.center;
    tensor_ = mp.InertiaTensor(rho);
    return;
  }
  // Exact per-element integrals (elements as polyhedra), shifted to the mass centre.
  std::vector<geometry::MassProperties> parts(elements_.size());
  mass_ = 0.0;
  Vec3 first = Vec3::Zero();
  // ToConvexes builds the mesh's face tables once (ElementConvex(e) rebuilds them per call)
  const std::vector<geometry::Convex> convexes = mesh_.ToConvexes();
  for (int e = 0; e < num_elements(); ++e) {
    parts[e] = convexes[e].ComputeMassProperties();
    const double m = materials_[elements_[e].material].density * parts[e].volume;
    mass_ += m;
    first += m * parts[e].center;
  }
  center_ = first / mass_;
  tensor_.setZero();
  for (int e = 0; e < num_elements(); ++e) {
    const Vec3 d = parts[e].center - center_;
    const Mat3 euler = parts[e].euler + parts[e].volume * d * d.transpose();
    tensor_ += materials_[elements_[e].material].density *
               (euler.trace() * Mat3::Identity() - euler);
  }
}

Vec3 FeBody::CurrentMassCenter() const {
  Vec3 first = Vec3::Zero();
  double mass = 0.0;
  for (int a = 0; a < num_nodes(); ++a) {
    first += mass_diag_[3 * a] * node(a);
    mass += mass_diag_[3 * a];
  }
  return first / mass;
}

void FeBody::ApplyBulkMaterial(int volid, const material::BulkMaterial& m) {
  std::set<int> volids;
  int count = 0;
  for (int e = 0; e < num_elements(); ++e) {
    volids.insert(mesh_.elements[e].volid);
    if (mesh_.elements[e].volid == volid) ++count;
  }
  if (count == 0) {
    std::ostringstream msg;
    msg << "APPLY_BULKMAT: no element of FINITE_ELEMENT body " << id_
        << (label_.empty() ? "" : " ('" + label_ + "')") << " has volume id " << volid
        << " (argument 'volid'); the mesh's volume ids are";
    for (int v : volids) msg << ' ' << v;
    throw InputError(msg.str());
  }
  materials_.push_back(m);
  const int index = static_cast<int>(materials_.size()) - 1;
  for (int e = 0; e < num_elements(); ++e)
    if (mesh_.elements[e].volid == volid) elements_[e].material = index;
  ComputeMass();
}

void FeBody::AddPressure(int surfid, ScalarOrSeries value, bool follower) {
  Pressure p;
  p.surfid = surfid;
  p.value = std::move(value);
  p.follower = follower;
  std::set<int> surfids;
  for (const geometry::MeshFace& f : mesh_.BoundaryFaces()) {
    surfids.insert(f.surfid);
    if (f.surfid == surfid) p.faces.push_back(f.nodes);
  }
  if (p.faces.empty()) {
    std::ostringstream msg;
    msg << "PRESSURE: no boundary face of the mesh of FINITE_ELEMENT body " << id_
        << (label_.empty() ? "" : " ('" + label_ + "')") << " has surface id " << surfid
        << " (argument 'surfid'); the boundary surface ids are";
    for (int s : surfids) msg << ' ' << s;
    throw InputError(msg.str());
  }
  pressures_.push_back(std::move(p));
}

VecX FeBody::PressureForce(double t) const {
  VecX f = VecX::Zero(3 * num_nodes());
  double N[4], Nr[4], Ns[4];
  for (const Pressure& p : pressures_) {
    const double value = p.value(t);
    for (const std::vector<int>& face : p.faces) {
      const int n = static_cast<int>(face.size());
      for (const FacePoint& g : FaceRule(n)) {
        fem::FaceShapeFunctions(n, g.r, g.s, N, Nr, Ns);
        Vec3 xr = Vec3::Zero(), xs = Vec3::Zero();
        for (int a = 0; a < n; ++a) {
          const Vec3 x = p.follower ? node(face[a]) : mesh_.nodes[face[a]];
          xr += Nr[a] * x, xs += Ns[a] * x;
        }
        const Vec3 area = xr.cross(xs);  // outward normal times the area density
        // Solfec-1.0's sign: traction value * n (negative values push into the body)
        for (int a = 0; a < n; ++a) f.segment<3>(3 * face[a]) += (value * g.w * N[a]) * area;
      }
    }
  }
  return f;
}

void FeBody::ElementResponse(int e, VecX* f, MatX* K, double* W, bool geometric,
                             bool current) const {
  const material::BulkMaterial& mat = materials_[elements_[e].material];
  if (mat.model != "KIRCHHOFF") return HyperelasticResponse(e, f, K, W, geometric, current);
  const ElementData& ed = elements_[e];
  const int k = ed.num_nodes;
  const double lambda = mat.lame_lambda(), mu = mat.lame_mu();
  const Mat3X x = ElementNodes(e, current);
  if (f) f->setZero(3 * k);
  if (K) K->setZero(3 * k, 3 * k);
  if (W) *W = 0.0;
  for (const GaussData& g : ed.gauss) {
    const Mat3 F = fem::ElementGradient(x, g.dNdX);
    const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
    const double tr = E.trace();
    const Mat3 S = lambda * tr * Mat3::Identity() + 2.0 * mu * E;
    if (W) *W += g.dV * (0.5 * lambda * tr * tr + mu * E.squaredNorm());
    if (f) {
      const Mat3 P = F * S;
      for (int a = 0; a < k; ++a) f->segment<3>(3 * a) -= g.dV * (P * g.dNdX.row(a).transpose());
    }
    if (K) {
      const Mat3X FG = F * g.dNdX.transpose();  // columns F g_a
      const Mat3 FFt = F * F.transpose();
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b) {
          const Vec3 ga = g.dNdX.row(a).transpose(), gb = g.dNdX.row(b).transpose();
          const Mat3 Kab = (geometric ? ga.dot(S * gb) : 0.0) * Mat3::Identity() +
                           lambda * FG.col(a) * FG.col(b).transpose() +
                           mu * ga.dot(gb) * FFt + mu * FG.col(b) * FG.col(a).transpose();
          K->block<3, 3>(3 * a, 3 * b) += g.dV * Kab;
        }
    }
  }
}

// NEO_HOOKEAN / BLATZ_KO: f_a = -int P g_a dV, K_ab(i,k) = int g_aJ A(iJ,kL) g_bL dV with
// A = dP/dF; geometric = false drops the initial-stress part (g_a . S g_b) I of A.
void FeBody::HyperelasticResponse(int e, VecX* f, MatX* K, double* W, bool geometric,
                                  bool current) const {
  const ElementData& ed = elements_[e];
  const int k = ed.num_nodes;
  const material::Hyperelastic law(materials_[ed.material]);
  const Mat3X x = ElementNodes(e, current);
  if (f) f->setZero(3 * k);
  if (K) K->setZero(3 * k, 3 * k);
  if (W) *W = 0.0;
  for (const GaussData& g : ed.gauss) {
    const Mat3 F = fem::ElementGradient(x, g.dNdX);
    if (W) *W += g.dV * law.Energy(F);
    const Mat3 S = law.SecondPiola(F);
    if (f) {
      const Mat3 P = F * S;
      for (int a = 0; a < k; ++a) f->segment<3>(3 * a) -= g.dV * (P * g.dNdX.row(a).transpose());
    }
    if (!K) continue;
    const material::Mat9 A = law.Tangent(F);
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) {
        const Vec3 ga = g.dNdX.row(a).transpose(), gb = g.dNdX.row(b).transpose();
        Mat3 Kab = (geometric ? 0.0 : -ga.dot(S * gb)) * Mat3::Identity();
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            for (int J = 0; J < 3; ++J)
              for (int L = 0; L < 3; ++L) Kab(i, j) += ga[J] * A(3 * i + J, 3 * j + L) * gb[L];
        K->block<3, 3>(3 * a, 3 * b) += g.dV * Kab;
      }
  }
}

VecX FeBody::StiffnessProduct(const VecX& v) const {
  VecX Kv = VecX::Zero(num_dofs());
  Mat3X ve;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const ElementData& ed = elements_[e];
    const material::Hyperelastic law(materials_[ed.material]);
    const Mat3X x = ElementNodes(static_cast<int>(e), true);
    ve.resize(3, ed.num_nodes);
    for (int a = 0; a < ed.num_nodes; ++a) ve.col(a) = v.segment<3>(3 * ed.nodes[a]);
    for (const GaussData& g : ed.gauss) {
      const Mat3 dP = law.FirstPiolaDerivative(fem::ElementGradient(x, g.dNdX),
                                                  fem::ElementGradient(ve, g.dNdX));  // dP/dF : dF
      for (int a = 0; a < ed.num_nodes; ++a)
        Kv.segment<3>(3 * ed.nodes[a]) += g.dV * (dP * g.dNdX.row(a).transpose());
    }
  }
  return Kv;
}

VecX FeBody::InternalForce() const {
  VecX f = VecX::Zero(num_dofs()), fe;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), &fe, nullptr, nullptr);
    const ElementData& ed = elements_[e];
    for (int a = 0; a < ed.num_nodes; ++a) f.segment<3>(3 * ed.nodes[a]) += fe.segment<3>(3 * a);
  }
  return f;
}

SparseMat FeBody::Stiffness(bool geometric) const {
  std::vector<Eigen::Triplet<double>> trip;
  MatX Ke;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), nullptr, &Ke, nullptr, geometric);
    const ElementData& ed = elements_[e];
    for (int a = 0; a < ed.num_nodes; ++a)
      for (int b = 0; b < ed.num_nodes; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            trip.emplace_back(3 * ed.nodes[a] + i, 3 * ed.nodes[b] + j, Ke(3 * a + i, 3 * b + j));
  }
  SparseMat K(num_dofs(), num_dofs());
  K.setFromTriplets(trip.begin(), trip.end());
  return K;
}

double FeBody::MaxFrequencySquared() const {
  FrequencyCache& c = w2_cache_;
  const bool bc = form_ == FeForm::kBC;
  if (c.valid && c.materials == materials_.size() &&
      (bc || (c.q.size() == q_.size() && c.q == q_)))
    return c.w2 * mass_scale_;
  double w2 = 0.0;
  MatX Ke;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), nullptr, &Ke, nullptr, true, !bc);  // 'BC': at Z
    const ElementData& ed = elements_[e];
    const double rho = materials_[ed.material].density;
    VecX m = VecX::Zero(3 * ed.num_nodes);
    for (const GaussData& g : ed.gauss)
      for (int a = 0; a < ed.num_nodes; ++a) m.segment<3>(3 * a).array() += rho * g.N[a] * g.dV;
    const VecX s = m.cwiseSqrt().cwiseInverse();
    const MatX A = s.asDiagonal() * (0.5 * (Ke + Ke.transpose())) * s.asDiagonal();
    Eigen::SelfAdjointEigenSolver<MatX> es(A, Eigen::EigenvaluesOnly);
    w2 = std::max(w2, es.eigenvalues().maxCoeff());
  }
  if (!bc) c.q = q_;
  c.materials = materials_.size();
  c.w2 = w2;
  c.valid = true;
  return w2 * mass_scale_;
}

void FeBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                const Mat3& tensor) {
  const double ratio = mass / mass_;
  Body::SetCharacteristics(mass, volume, center, tensor);
  mass_diag_ *= ratio;
  mass_scale_ /= ratio;
}

VecX FeBody::NodalLoadForce(double t, const Vec3& gravity) const {
  VecX f(3 * num_nodes());
  for (int i = 0; i < num_nodes(); ++i) f.segment<3>(3 * i) = mass_diag_[3 * i] * gravity;
  if (!pressures_.empty()) f += PressureForce(t);
  for (const PointLoad& load : loads_) {
    if (load.callback) continue;
    if (load.type == PointLoad::Type::kTorque)
      throw InputError("TORQUE: not available for FINITE_ELEMENT bodies (argument 'body'); "
                       "apply point FORCEs instead");
    const Vec3 d = load.convected ? Vec3(PolarRotation(DeformationGradient(load.point)) *
                                         load.direction)
                                  : load.direction;
    int e;
    VecX N;
    Interpolate(load.point, e, N);
    const Vec3 fs = load.value(t) * d;
    for (int a = 0; a < elements_[e].num_nodes; ++a)
      f.segment<3>(3 * elements_[e].nodes[a]) += N[a] * fs;
  }
  return f;
}

VecX FeBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  VecX f = NodalLoadForce(t, gravity);
  for (const PointLoad& load : loads_) {
    if (!load.callback) continue;
    const VecX r = load.callback(q_, u_, t, h);
    if (r.size() != num_dofs() || !r.allFinite())
      throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                       " values (argument 'value'); a FINITE_ELEMENT body callback must "
                       "return " + std::to_string(num_dofs()) +
                       " finite numbers (the generalized force conjugate to velo)");
    f += r;
  }
  return f;
}

}  // namespace solfec::body
