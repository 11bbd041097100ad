// Domain binding: the SOLFEC object's core (bodies, constraints, materials, loads, run
// control, energies, statistics). Bodies and constraints are addressed by id so that a
// deleted object gives a clear error in Python instead of a dangling pointer.
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "body/body_factory.h"
#include "body/fem/fe_body.h"
#include "body/fem/ffr_body.h"
#include "body/fem/point_stress.h"
#include "body/rigid_body.h"
#include "domain/domain.h"
#include "domain/partition.h"
#include "domain/progress.h"
#include "domain/springs.h"
#include "domain/user_constraints.h"

namespace py = pybind11;

namespace solfec::bindings {

using body::Body;
using contact::Constraint;
using contact::ConstraintKind;
using domain::Domain;

namespace {

Body& GetBody(const Domain& d, Id id) {
  Body* b = d.FindBody(id);
  if (!b) throw InputError("BODY: body " + std::to_string(id) + " was deleted");
  return *b;
}

Constraint& GetConstraint(Domain& d, Id id) {
  Constraint* c = d.FindConstraint(id);
  if (!c) throw InputError("CONSTRAINT: constraint " + std::to_string(id) + " no longer exists");
  return *c;
}

body::BodyKind ParseKind(const std::string& k) {
  if (k == "RIGID") return body::BodyKind::kRigid;
  if (k == "OBSTACLE") return body::BodyKind::kObstacle;
  if (k == "PSEUDO_RIGID") return body::BodyKind::kPseudoRigid;
  if (k == "FINITE_ELEMENT") return body::BodyKind::kFiniteElement;
  throw InputError("BODY: unknown kind '" + k +
                   "' (argument 'kind'); use 'RIGID', 'PSEUDO_RIGID', 'FINITE_ELEMENT' or "
                   "'OBSTACLE'");
}

const std::vector<std::pair<body::Scheme, std::string>> kSchemes = {
    {body::Scheme::kDefault, "DEFAULT"},
    {body::Scheme::kRigPos, "RIG_POS"},
    {body::Scheme::kRigNeg, "RIG_NEG"},
    {body::Scheme::kRigImp, "RIG_IMP"},
    {body::Scheme::kDefExp, "DEF_EXP"},
    {body::Scheme::kDefLim, "DEF_LIM"},
    {body::Scheme::kDefLim2, "DEF_LIM2"},
    {body::Scheme::kDefImp, "DEF_IMP"},
    {body::Scheme::kDefSemiExplicit, "DEF_SEMI_EXPLICIT"}};

ScalarOrSeries ToScalarOrSeries(const py::object& v) {
  if (py::isinstance<TimeSeries>(v)) return ScalarOrSeries(v.cast<TimeSeries>());
  return ScalarOrSeries(v.cast<double>());
}

// The mesh body of a FINITE_ELEMENT body for the stress queries: the body itself or, for
// form 'FFR', its internal mesh body (nodes at the current positions); throws naming STRESS.
const body::FeBody& StressMesh(const Domain& d, Id id) {
  if (const body::FeBody* fe = GetBody(d, id).MeshBody()) return *fe;
  throw InputError("STRESS: the body is not FINITE_ELEMENT (argument 'body')");
}

py::tuple Tuple(const VecX& v) {
  py::tuple t(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) t[i] = v[i];
  return t;
}

py::tuple TupleMat(const Mat3& m) {  // column-wise 9-tuple
  py::tuple t(9);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) t[3 * j + i] = m(i, j);
  return t;
}

// Manual base layout: (eT1x, eT2x, eNx, eT1y, eT2y, eNy, eT1z, eT2z, eNz) = row-wise.
py::tuple BaseTuple(const Mat3& b) {
  py::tuple t(9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[3 * i + j] = b(i, j);
  return t;
}

py::tuple EnergyTuple(const domain::Energy& e) {
  return py::make_tuple(e.kinetic, e.internal, e.external, e.contact, e.friction);
}

void DefineBodyAccess(py::class_<Domain>& c) {
  c.def(
       "add_body",
       [](Domain& d, const std::string& kind, geometry::Shape& shape,
          const material::BulkMaterial& mat, const std::string& label,
          const std::optional<geometry::Shape>& mesh, const std::string& form,
          const std::optional<VecX>& evals, const std::optional<MatX>& evecs) {
         body::FeOptions fe;
         fe.form = body::ParseFeForm(form);
         if (evals) fe.evals = *evals;
         if (evecs) fe.evecs = *evecs;
         std::optional<geometry::Mesh> background;
         if (mesh) {
           if (mesh->meshes.size() != 1 || !mesh->convexes.empty() || !mesh->spheres.empty())
             throw InputError("BODY: argument 'mesh' must be a single MESH object");
           background = mesh->meshes[0];
         }
         auto b = body::MakeBody(ParseKind(kind), shape, mat, label, std::move(background),
                                 std::move(fe));
         shape = geometry::Shape();  // BODY empties its shape argument
         return d.AddBody(std::move(b)).id();
       },
       py::arg("kind"), py::arg("shape"), py::arg("material"), py::arg("label"),
       py::arg("mesh") = py::none(), py::arg("form") = "TL", py::arg("evals") = py::none(),
       py::arg("evecs") = py::none())
      .def(
          "add_pressure",
          [](Domain& d, Id id, int surfid, const py::object& value, const py::object& follower) {
            Body& b = GetBody(d, id);
            if (body::FeBody* fe = b.AsFeBody())
              return fe->AddPressure(surfid, ToScalarOrSeries(value),
                                     !follower.is_none() && follower.cast<bool>());
            if (auto* ffr = dynamic_cast<body::FfrBody*>(&b)) {
              if (!follower.is_none() && !follower.cast<bool>())
                throw InputError(
                    "PRESSURE: a FINITE_ELEMENT body of form 'FFR' takes the "
                    "pressure on its current faces (argument 'follower' must be "
                    "True or left out, got False)");
              return ffr->AddPressure(surfid, ToScalarOrSeries(value));
            }
            throw InputError(
                "PRESSURE: applies to FINITE_ELEMENT bodies only (argument "
                "'body')");
          },
          py::arg("id"), py::arg("surfid"), py::arg("value"), py::arg("follower") = py::none())
      .def("apply_bulk_material",
           [](Domain& d, Id id, int volid, const material::BulkMaterial& mat) {
             Body& b = GetBody(d, id);
             if (body::FeBody* fe = b.AsFeBody()) return fe->ApplyBulkMaterial(volid, mat);
             if (auto* ffr = dynamic_cast<body::FfrBody*>(&b))
               return ffr->ApplyBulkMaterial(volid, mat);
             throw InputError(
                 "APPLY_BULKMAT: applies to FINITE_ELEMENT bodies only "
                 "(argument 'body')");
           })
      .def("delete_body", &Domain::DeleteBody)
      // PARTITION (python/solfec/partition.py): the part ids
      .def("partition_body", &domain::PartitionBody, py::arg("body"), py::arg("parts"))
      .def("has_body", [](const Domain& d, Id id) { return d.FindBody(id) != nullptr; })
      .def("body_ids",
           [](const Domain& d) {
             std::vector<Id> ids;
             for (const auto& b : d.bodies()) ids.push_back(b->id());
             return ids;
           })
      .def("body_kind",
           [](const Domain& d, Id id) { return body::KindName(GetBody(d, id).kind()); })
      .def("body_label", [](const Domain& d, Id id) { return GetBody(d, id).label(); })
      .def("body_conf", [](const Domain& d, Id id) { return Tuple(GetBody(d, id).q()); })
      .def("body_velo", [](const Domain& d, Id id) { return Tuple(GetBody(d, id).u()); })
      .def("fe_point_stress",  // FINITE_ELEMENT: STRESS at a referential point
           [](const Domain& d, Id id, const Vec3& X) {
             return body::PointStress(StressMesh(d, id), X, d.contact_settings().geometric_epsilon);
           })
      .def("fe_material_at",  // FINITE_ELEMENT: (young, poisson) of the element at X
           [](const Domain& d, Id id, const Vec3& X) {
             const material::BulkMaterial& m = StressMesh(d, id).MaterialAt(X);
             return std::make_pair(m.young, m.poisson);
           })
      .def("fe_material_model_at",  // FINITE_ELEMENT: model name of the element at X
           [](const Domain& d, Id id, const Vec3& X) {
             return StressMesh(d, id).MaterialAt(X).model;
           })
      .def("set_body_conf",
           [](Domain& d, Id id, const VecX& q) {
             Body& b = GetBody(d, id);
             if (q.size() != b.q().size())
               throw InputError("BODY.conf: expected " + std::to_string(b.q().size()) + " values");
             b.mutable_q() = q;
             b.UpdateShape();
           })
      .def("set_body_velo",
           [](Domain& d, Id id, const VecX& u) {
             Body& b = GetBody(d, id);
             if (u.size() != b.u().size())
               throw InputError("BODY.velo: expected " + std::to_string(b.u().size()) + " values");
             b.mutable_u() = u;
           })
      .def("body_mass", [](const Domain& d, Id id) { return GetBody(d, id).mass(); })
      .def("body_volume", [](const Domain& d, Id id) { return GetBody(d, id).volume(); })
      // BODY.mesh of a FINITE_ELEMENT body: its mesh (the background mesh of embedded
      // shapes) with the nodes at their current positions.
      .def("body_mesh",
           [](const Domain& d, Id id) {
             const body::FeBody* fe = GetBody(d, id).MeshBody();
             if (!fe)
               throw InputError("BODY.mesh: body " + std::to_string(id) + " is not FINITE_ELEMENT");
             geometry::Shape out;
             geometry::Mesh m = fe->mesh();
             for (int i = 0; i < fe->num_nodes(); ++i) m.nodes[i] = fe->node(i);
             out.meshes.push_back(std::move(m));
             return out;
           })
      // one current node of a FINITE_ELEMENT body's mesh (BODY.mesh.node: O(1))
      .def("body_mesh_node",
           [](const Domain& d, Id id, int n) {
             const body::FeBody* fe = GetBody(d, id).MeshBody();
             if (!fe)
               throw InputError("BODY.mesh: body " + std::to_string(id) + " is not FINITE_ELEMENT");
             if (n < 0 || n >= fe->num_nodes())
               throw py::index_error("MESH.node: index " + std::to_string(n) +
                                     " out of range [0, " + std::to_string(fe->num_nodes()) + ")");
             return Vec3(fe->node(n));
           })
      .def("body_center", [](const Domain& d, Id id) { return Vec3(GetBody(d, id).center()); })
      .def("body_tensor", [](const Domain& d, Id id) { return TupleMat(GetBody(d, id).tensor()); })
      .def("body_scheme",
           [](const Domain& d, Id id) {
             return std::string(body::SchemeName(GetBody(d, id).scheme));
           })
      .def("set_body_scheme",
           [](Domain& d, Id id, const std::string& s) {
             for (const auto& [sch, name] : kSchemes)
               if (name == s) {
                 GetBody(d, id).scheme = sch;
                 return;
               }
             throw InputError("BODY.scheme: unknown scheme '" + s +
                              "'; use 'DEFAULT', 'RIG_POS', 'RIG_NEG', 'RIG_IMP', 'DEF_EXP', "
                              "'DEF_LIM', 'DEF_LIM2', 'DEF_IMP' or 'DEF_SEMI_EXPLICIT'");
           })
      .def("body_damping", [](const Domain& d, Id id) { return GetBody(d, id).damping; })
      .def("set_body_damping", [](Domain& d, Id id, double v) { GetBody(d, id).damping = v; })
      .def("body_selfcontact", [](const Domain& d, Id id) { return GetBody(d, id).selfcontact; })
      .def("set_body_selfcontact", [](Domain& d, Id id, bool v) { GetBody(d, id).selfcontact = v; })
      .def("set_initial_velocity",
           [](Domain& d, Id id, const Vec3& lin, const Vec3& ang) {
             GetBody(d, id).SetInitialVelocity(lin, ang);
           })
      .def(
          "set_characteristics",
          [](Domain& d, Id id, double mass, double volume, const Vec3& center, const Mat3& tensor) {
            GetBody(d, id).SetCharacteristics(mass, volume, center, tensor);
          })
      .def("body_point",
           [](const Domain& d, Id id, const Vec3& X) { return GetBody(d, id).SpatialPoint(X); })
      .def("set_body_works",
           [](Domain& d, Id id, double external, double contact, double friction) {
             Body& b = GetBody(d, id);  // INITIALIZE_STATE: ENERGY's work counters
             b.external_work = external;
             b.contact_work = contact;
             b.friction_work = friction;
           })
      .def("body_works",
           [](const Domain& d, Id id) {
             const Body& b = GetBody(d, id);
             return py::make_tuple(b.external_work, b.contact_work, b.friction_work);
           })
      .def("set_body_rotation_disabled",
           [](Domain& d, Id id, bool disabled) {
             Body& b = GetBody(d, id);
             if (b.kind() != body::BodyKind::kRigid)
               throw InputError("BODY.disable_rotation: body " + std::to_string(id) +
                                " is not RIGID; the flag applies to RIGID bodies only");
             static_cast<body::RigidBody&>(b).DisableRotation(disabled);  // kind RIGID
           })
      .def("body_rotation_disabled",
           [](const Domain& d, Id id) {
             const Body& b = GetBody(d, id);  // kind RIGID: a RigidBody (body_factory.cc)
             return b.kind() == body::BodyKind::kRigid &&
                    static_cast<const body::RigidBody&>(b).rotation_disabled();
           })
      .def("body_mass_center",
           [](const Domain& d, Id id) {
             const Body& b = GetBody(d, id);
             const body::FeBody* fe = b.AsFeBody();
             return fe ? fe->CurrentMassCenter() : b.SpatialPoint(b.center());
           })
      .def("body_point_velocity",
           [](const Domain& d, Id id, const Vec3& X) { return GetBody(d, id).PointVelocity(X); })
      .def("body_constraint_ids",
           [](const Domain& d, Id id) {
             const Body* b = &GetBody(d, id);
             std::vector<Id> ids;
             for (const Constraint& c : d.constraints())
               if (c.body1 == b || c.body2 == b) ids.push_back(c.id);
             return ids;
           })
      .def(
          "add_load",
          [](Domain& d, Id id, bool torque, bool convected, const Vec3& point, const Vec3& dir,
             const py::object& value,
             std::function<VecX(const VecX&, const VecX&, double, double)> callback) {
            body::PointLoad l;
            l.type = torque ? body::PointLoad::Type::kTorque : body::PointLoad::Type::kForce;
            l.convected = convected;
            l.point = point;
            l.direction = dir.normalized();
            if (callback) {
              l.callback = std::move(callback);
            } else {
              l.value = ToScalarOrSeries(value);
            }
            GetBody(d, id).loads().push_back(std::move(l));
          },
          py::arg("body"), py::arg("torque"), py::arg("convected"), py::arg("point"),
          py::arg("direction"), py::arg("value"), py::arg("callback"));
}

void DefineConstraintAccess(py::class_<Domain>& c) {
  // FIX_POINT, FIX_DIRECTION, SET_VELOCITY, SET_DISPLACEMENT, SET_ACCELERATION,
  // PUT_RIGID_LINK (domain/user_constraints.h); a body id < 0 is None.
  auto add = [](Domain& d, Constraint c) { return d.AddConstraint(std::move(c)).id; };
  auto body_or_null = [](const Domain& d, Id id) { return id >= 0 ? &GetBody(d, id) : nullptr; };
  c.def(
       "add_fix_point",
       [add](Domain& d, Id b, const Vec3& X, double strength) {
         return add(d, domain::MakeFixPoint(GetBody(d, b), X, strength));
       },
       py::arg("body"), py::arg("point"), py::arg("strength"))
      .def(
          "add_fix_direction",
          [add, body_or_null](Domain& d, Id b, const Vec3& X, const Vec3& dir, Id b2,
                              const Vec3& X2) {
            return add(d, domain::MakeFixDirection(GetBody(d, b), X, dir, body_or_null(d, b2), X2));
          },
          py::arg("body"), py::arg("point"), py::arg("direction"), py::arg("body2"),
          py::arg("point2"))
      .def(
          "add_set_velocity",
          [add](Domain& d, Id b, const Vec3& X, const Vec3& dir, const py::object& value) {
            return add(d, domain::MakeSetVelocity(GetBody(d, b), X, dir, ToScalarOrSeries(value)));
          },
          py::arg("body"), py::arg("point"), py::arg("direction"), py::arg("value"))
      .def(
          "add_set_displacement",
          [add](Domain& d, Id b, const Vec3& X, const Vec3& dir, const TimeSeries& ts) {
            return add(d, domain::MakeSetDisplacement(GetBody(d, b), X, dir, ts));
          },
          py::arg("body"), py::arg("point"), py::arg("direction"), py::arg("tms"))
      .def(
          "add_set_acceleration",
          [add](Domain& d, Id b, const Vec3& X, const Vec3& dir, const TimeSeries& ts) {
            return add(d, domain::MakeSetAcceleration(GetBody(d, b), X, dir, ts));
          },
          py::arg("body"), py::arg("point"), py::arg("direction"), py::arg("tms"))
      .def(
          "add_rigid_link",
          [add, body_or_null](Domain& d, Id b1, Id b2, const Vec3& X1, const Vec3& X2,
                              double strength) {
            return add(d, domain::MakeRigidLink(body_or_null(d, b1), X1, body_or_null(d, b2), X2,
                                                d.contact_settings().geometric_epsilon, strength));
          },
          py::arg("body1"), py::arg("body2"), py::arg("point1"), py::arg("point2"),
          py::arg("strength"))
      .def(
          "add_spring",
          [](Domain& d, Id b1, Id b2, const Vec3& p1, const Vec3& p2, contact::SpringFunction f,
             std::optional<Vec3> direction, const std::string& update,
             std::optional<std::pair<double, double>> limits) {
            contact::SpringUpdate u = contact::SpringUpdate::kFixed;
            if (update == "CONV1")
              u = contact::SpringUpdate::kConvected1;
            else if (update == "CONV2")
              u = contact::SpringUpdate::kConvected2;
            else if (update != "FIXED")
              throw InputError("PUT_SPRING: unknown update '" + update +
                               "' (argument 'update'); use 'FIXED', 'CONV1' or 'CONV2'");
            Body* body1 = b1 >= 0 ? &GetBody(d, b1) : nullptr;
            Body* body2 = b2 >= 0 ? &GetBody(d, b2) : nullptr;
            contact::Constraint c =
                domain::MakeSpring(body1, p1, body2, p2, std::move(f), direction, u);
            if (limits) {
              if (!(limits->first < limits->second))
                throw InputError("PUT_SPRING: limits (" + std::to_string(limits->first) + ", " +
                                 std::to_string(limits->second) +
                                 ") (argument 'limits') must have lo < hi");
              c.spring_lo = limits->first;
              c.spring_hi = limits->second;
            }
            return d.AddConstraint(std::move(c)).id;
          },
          py::arg("body1"), py::arg("body2"), py::arg("point1"), py::arg("point2"),
          py::arg("function"), py::arg("direction"), py::arg("update"),
          py::arg("limits") = py::none())
      .def("constraint_stroke",
           [](Domain& d, Id id) -> py::object {
             const Constraint& c = GetConstraint(d, id);
             if (c.kind != ConstraintKind::kSpring) return py::none();
             return py::float_(c.stroke);
           })
      .def("delete_constraint", &Domain::DeleteConstraint)
      .def("has_constraint", [](Domain& d, Id id) { return d.FindConstraint(id) != nullptr; })
      .def("constraint_ids",
           [](const Domain& d) {
             std::vector<Id> ids;
             for (const Constraint& c : d.constraints()) ids.push_back(c.id);
             return ids;
           })
      .def("constraint_kind",
           [](Domain& d, Id id) {
             return std::string(contact::KindName(GetConstraint(d, id).kind));
           })
      .def("constraint_R", [](Domain& d, Id id) { return Vec3(GetConstraint(d, id).R); })
      .def("constraint_U", [](Domain& d, Id id) { return Vec3(GetConstraint(d, id).U); })
      .def("constraint_V", [](Domain& d, Id id) { return Vec3(GetConstraint(d, id).U_prev); })
      .def("constraint_base", [](Domain& d, Id id) { return BaseTuple(GetConstraint(d, id).base); })
      .def("constraint_point",
           [](Domain& d, Id id) {
             const Constraint& c = GetConstraint(d, id);
             if (c.kind == ConstraintKind::kRigidLink || c.kind == ConstraintKind::kSpring ||
                 c.kind == ConstraintKind::kGlue)
               return py::make_tuple(c.point.x(), c.point.y(), c.point.z(), c.point2.x(),
                                     c.point2.y(), c.point2.z());
             return py::make_tuple(c.point.x(), c.point.y(), c.point.z());
           })
      .def("constraint_area", [](Domain& d, Id id) { return GetConstraint(d, id).area; })
      .def("constraint_gap", [](Domain& d, Id id) { return GetConstraint(d, id).gap; })
      .def("constraint_merit", [](Domain& d, Id id) { return GetConstraint(d, id).merit; })
      .def("constraint_bodies",
           [](Domain& d, Id id) {
             const Constraint& c = GetConstraint(d, id);
             return std::make_pair(c.body1 ? c.body1->id() : kNoId,
                                   c.body2 ? c.body2->id() : kNoId);
           })
      .def("constraint_material_label",
           [](Domain& d, Id id) -> py::object {
             const Constraint& c = GetConstraint(d, id);
             if (c.kind != ConstraintKind::kContact || !c.material) return py::none();
             return py::str(c.material->label);
           })
      .def("constraint_surfaces", [](Domain& d, Id id) {
        const Constraint& c = GetConstraint(d, id);
        return std::make_pair(c.surf1, c.surf2);
      });
}

}  // namespace

void DefineDomain(py::module_& m) {
  py::class_<material::BulkMaterial>(m, "BulkMaterial")
      .def(py::init<>())
      .def_readwrite("label", &material::BulkMaterial::label)
      .def_readwrite("model", &material::BulkMaterial::model)
      .def_readwrite("young", &material::BulkMaterial::young)
      .def_readwrite("poisson", &material::BulkMaterial::poisson)
      .def_readwrite("density", &material::BulkMaterial::density)
      .def("validate", &material::BulkMaterial::Validate);

  py::class_<material::SurfaceMaterial>(m, "SurfaceMaterial")
      .def(py::init<>())
      .def_readwrite("label", &material::SurfaceMaterial::label)
      .def_readwrite("surf1", &material::SurfaceMaterial::surf1)
      .def_readwrite("surf2", &material::SurfaceMaterial::surf2)
      .def_readwrite("is_default", &material::SurfaceMaterial::is_default)
      .def_property(
          "model",
          [](const material::SurfaceMaterial& s) {
            return s.model == material::SurfaceModel::kSpringDashpot ? "SPRING_DASHPOT"
                                                                     : "SIGNORINI_COULOMB";
          },
          [](material::SurfaceMaterial& s, const std::string& v) {
            if (v == "SIGNORINI_COULOMB")
              s.model = material::SurfaceModel::kSignoriniCoulomb;
            else if (v == "SPRING_DASHPOT")
              s.model = material::SurfaceModel::kSpringDashpot;
            else
              throw InputError("SURFACE_MATERIAL: unknown model '" + v +
                               "' (argument 'model'); use 'SIGNORINI_COULOMB' or 'SPRING_DASHPOT'");
          })
      .def_readwrite("friction", &material::SurfaceMaterial::friction)
      .def_readwrite("cohesion", &material::SurfaceMaterial::cohesion)
      .def_readwrite("restitution", &material::SurfaceMaterial::restitution)
      .def_readwrite("spring", &material::SurfaceMaterial::spring)
      .def_readwrite("dashpot", &material::SurfaceMaterial::dashpot)
      .def_readwrite("hpow", &material::SurfaceMaterial::hpow)
      .def("validate", &material::SurfaceMaterial::Validate);

  py::class_<Domain> c(m, "Domain");
  c.def(py::init([](const std::string& analysis, double step) {
          if (analysis != "DYNAMIC" && analysis != "QUASI_STATIC")
            throw InputError("SOLFEC: unknown analysis '" + analysis +
                             "' (argument 'analysis'); use 'DYNAMIC' or 'QUASI_STATIC'");
          return std::make_unique<Domain>(
              analysis == "DYNAMIC" ? domain::Analysis::kDynamic : domain::Analysis::kQuasiStatic,
              step);
        }),
        py::arg("analysis"), py::arg("step"))
      .def_property_readonly("time", &Domain::time)
      .def_property("step", &Domain::step, &Domain::set_step)
      .def_property_readonly("step_count", &Domain::step_count)
      .def_property_readonly("num_bodies", [](const Domain& d) { return d.bodies().size(); })
      .def_property_readonly("num_constraints",
                             [](const Domain& d) { return d.constraints().size(); })
      .def_property_readonly("num_contacts", &Domain::num_contacts)
      .def_property(
          "geometric_epsilon",
          [](const Domain& d) { return d.contact_settings().geometric_epsilon; },
          [](Domain& d, double v) { d.contact_settings().geometric_epsilon = v; })
      .def_property(
          "penetration_depth",
          [](const Domain& d) { return d.contact_settings().penetration_depth; },
          [](Domain& d, double v) { d.contact_settings().penetration_depth = v; })
      .def_property(
          "contact_points", [](const Domain& d) { return d.contact_settings().contact_points; },
          [](Domain& d, int v) { d.contact_settings().contact_points = v; })
      .def("set_extents",
           [](Domain& d, std::array<double, 6> e) { d.contact_settings().extents = e; })
      .def("set_sparsify",
           [](Domain& d, double threshold, double minarea, double mindist) {
             d.contact_settings().sparsify.threshold = threshold;
             d.contact_settings().sparsify.minarea = minarea;
             d.contact_settings().sparsify.mindist = mindist;
           })
      .def("exclude_bodies",
           [](Domain& d, Id a, Id b) {
             d.contact_settings().excluded_bodies.insert(std::minmax(a, b));
           })
      .def("exclude_surfaces",
           [](Domain& d, int a, int b) {
             d.contact_settings().excluded_surfaces.insert(std::minmax(a, b));
           })
      .def("exclude_objects",
           [](Domain& d, Id a, int pa, Id b, int pb) {
             d.contact_settings().excluded_objects.insert(
                 std::minmax(std::make_pair(a, pa), std::make_pair(b, pb)));
           })
      .def("body_piece_at",
           [](const Domain& d, Id id, const Vec3& X) {
             // piece of a body's referential shape containing X (-1 if none)
             const auto& s = GetBody(d, id).ref_shape();
             for (size_t i = 0; i < s.convexes.size(); ++i)
               if (s.convexes[i].Contains(X, 1e-9)) return static_cast<int>(i);
             for (size_t i = 0; i < s.spheres.size(); ++i)
               if ((s.spheres[i].center - X).norm() <= s.spheres[i].radius)
                 return static_cast<int>(s.convexes.size() + i);
             return -1;
           })
      .def("set_gravity",
           [](Domain& d, const py::object& gx, const py::object& gy, const py::object& gz) {
             d.gravity() = {ToScalarOrSeries(gx), ToScalarOrSeries(gy), ToScalarOrSeries(gz)};
           })
      .def("add_surface_material",
           [](Domain& d, const material::SurfaceMaterial& s) { d.surface_materials().Insert(s); })
      .def("update_surface_material",
           [](Domain& d, const material::SurfaceMaterial& s) {
             auto* m =
                 const_cast<material::SurfaceMaterial*>(d.surface_materials().FindByLabel(s.label));
             if (m) *m = s;
           })
      .def("add_callback", &Domain::AddCallback, py::arg("interval"), py::arg("fn"))
      // solfec-mpi (docs/parallel.md): the launcher's decomposition factory (a PyCapsule of
      // domain::Decomposition* (*)()), IMBALANCE_TOLERANCE, HERE and the statistics.
      .def("_attach_decomposition",
           [](Domain& d, const py::capsule& factory) {
             using Factory = domain::Decomposition* (*)();
             auto make = reinterpret_cast<Factory>(factory.get_pointer<void>());
             d.SetDecomposition(std::unique_ptr<domain::Decomposition>(make()));
           })
      .def("_set_balance",
           [](Domain& d, double tolerance, bool lockdir, double degenratio, double weightfactor,
              int updatefreq) {
             d.decomposition().SetBalance(tolerance, lockdir, degenratio, weightfactor, updatefreq);
           })
      .def("owns", [](const Domain& d, Id id) { return d.Owns(GetBody(d, id)); })
      .def_property_readonly("parallel_stats",
                             [](Domain& d) -> py::object {
                               if (!d.distributed()) return py::none();
                               return py::cast(d.decomposition().Stats());
                             })
      // The steps run without the GIL (other Python threads, e.g. the viewer's server, go
      // on meanwhile). Every call back into Python takes it again: the interrupt check below,
      // and the Python callables held as std::function (FORCE callbacks, CALLBACK functions,
      // PUT_SPRING functions, the solver-failure policy), whose pybind11 wrappers acquire the
      // GIL for each call. Nothing else in the domain touches Python objects.
      .def(
          "run",
          [](Domain& d, solvers::ConstraintSolver& solver, double duration) {
            d.set_interrupt_check([] {
              py::gil_scoped_acquire gil;
              if (PyErr_CheckSignals() != 0) throw py::error_already_set();
              return false;
            });
            py::gil_scoped_release nogil;
            return d.Run(solver, duration);
          },
          py::arg("solver"), py::arg("duration"))
      .def("set_solver_failure",
           [](Domain& d, std::function<bool(const solvers::SolverStats&)> f) {
             d.set_solver_failure(std::move(f));
           })
      .def("set_progress", [](Domain& d, const std::string& mode) { domain::SetProgress(d, mode); })
      .def("energy", [](const Domain& d) { return EnergyTuple(d.ComputeEnergy()); })
      .def("energy_of",
           [](const Domain& d, const std::vector<Id>& ids) {
             std::vector<const Body*> bs;
             for (Id id : ids) bs.push_back(&GetBody(d, id));
             return EnergyTuple(d.ComputeEnergy(bs));
           })
      .def("timing",
           [](const Domain& d, const std::string& label) {
             const auto& t = d.stage_times();
             if (label == "TIMINT") return t.TIMINT;
             if (label == "CONUPD") return t.CONUPD;
             if (label == "CONDET") return t.CONDET;
             if (label == "LOCDYN") return t.LOCDYN;
             if (label == "CONSOL") return t.CONSOL;
             if (label == "PARBAL") return t.PARBAL;
             throw InputError("TIMING: unknown kind '" + label +
                              "' (argument 'kind'); use 'TIMINT', 'CONUPD', 'CONDET', 'LOCDYN', "
                              "'CONSOL' or 'PARBAL'");
           })
      .def("solver_stats", [](const Domain& d) { return d.solver_stats(); })
      // The last step's local dynamics as flat lists (LOCDYN_DUMP): block CSR row_ptr, col,
      // W (9 per block, row-major), B, R, U (3 per row, local T1, T2, N), law kinds
      // (0 contact, 1 equality, 2 normal equality) and friction coefficients.
      // Under solfec-mpi (collective) the whole problem of all ranks, rows in rank order.
      // ids, body1, body2, point: who each row is.
      .def("last_problem", [](const Domain& d) {
        solvers::BlockProblem p;
        std::vector<domain::ProblemRow> rows;
        d.decomposition().GatherProblem(d, p, rows);
        py::dict out;
        std::vector<Id> ids, body1, body2;
        std::vector<double> point;
        for (const domain::ProblemRow& r : rows) {
          ids.push_back(r.id);
          body1.push_back(r.body1);
          body2.push_back(r.body2);
          point.insert(point.end(), r.point.data(), r.point.data() + 3);
        }
        out["ids"] = ids;
        out["body1"] = body1;
        out["body2"] = body2;
        out["point"] = point;
        std::vector<double> W, B, R, U, mu, shift;  // shift: eta min(0, U_N^t) (eq. 7.1)
        std::vector<int> kind;
        for (const Mat3& w : p.W)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) W.push_back(w(i, j));
        for (int a = 0; a < p.size(); ++a) {
          for (int i = 0; i < 3; ++i) {
            B.push_back(p.B[a](i));
            R.push_back(a < static_cast<int>(p.R.size()) ? p.R[a](i) : 0.0);
            U.push_back(a < static_cast<int>(p.U.size()) ? p.U[a](i) : 0.0);
          }
          kind.push_back(static_cast<int>(p.laws[a].kind));
          mu.push_back(p.laws[a].friction);
          shift.push_back(p.laws[a].restitution * std::min(0.0, p.laws[a].UN_prev));
        }
        out["row_ptr"] = p.row_ptr;
        out["col"] = p.col;
        out["W"] = W;
        out["B"] = B;
        out["R"] = R;
        out["U"] = U;
        out["kind"] = kind;
        out["mu"] = mu;
        out["shift"] = shift;
        return out;
      });
  DefineBodyAccess(c);
  DefineConstraintAccess(c);
}

}  // namespace solfec::bindings
