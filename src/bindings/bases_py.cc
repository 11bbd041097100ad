// Reduced-basis binding: modal analysis, rigid modes, co-rotated displacements and the
// reference and tangent stiffness / lumped mass / referential nodes of FINITE_ELEMENT bodies
// (python/solfec/bases.py, initial_state.py, compat.py).
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "body/fem/fe_body.h"
#include "body/fem/modal_analysis.h"
#include "body/fem/reduced_fe_body.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

body::FeBody& GetFeBody(const domain::Domain& d, Id id, const std::string& routine) {
  body::Body* b = d.FindBody(id);
  if (!b) throw InputError(routine + ": body " + std::to_string(id) + " was deleted");
  body::FeBody* fe = b->AsFeBody();
  if (!fe)
    throw InputError(routine + ": body " + std::to_string(id) +
                     " is not a FINITE_ELEMENT body of form 'TL', 'BC', 'BC-RO' or 'BC-MODAL' "
                     "(argument 'body'); reduced bases are built for those bodies only");
  return *fe;
}

}  // namespace

void DefineBases(py::module_& m) {
  m.def(
      "modal_analysis",
      [](const domain::Domain& d, Id id, int num, double abstol, int maxiter, bool verbose) {
        body::ModalOptions o;
        o.tolerance = abstol;
        o.max_restarts = maxiter;
        o.verbose = verbose;
        body::ModalBase b = body::ModalAnalysis(GetFeBody(d, id, "MODAL_ANALYSIS"), num, o);
        return py::make_tuple(b.evals, b.evecs, b.dense, b.operations);
      },
      py::arg("domain"), py::arg("body"), py::arg("num"), py::arg("abstol"), py::arg("maxiter"),
      py::arg("verbose"),
      "(evals (num), evecs (3N x num), dense path used, Lanczos operator applications)");
  m.def(
      "rigid_displacements",
      [](const domain::Domain& d, Id id, bool mass_weighted) {
        return body::RigidDisplacements(GetFeBody(d, id, "RIGID_DISPLACEMENTS"), mass_weighted);
      },
      py::arg("domain"), py::arg("body"), py::arg("mass_weighted") = false);
  m.def(
      "corotated_displacements",
      [](const domain::Domain& d, Id id, const MatX& X) {
        std::vector<Mat3> rotations;
        MatX D = body::CorotatedDisplacements(GetFeBody(d, id, "COROTATED_DISPLACEMENTS"), X,
                                              &rotations);
        return py::make_tuple(D, rotations);
      },
      py::arg("domain"), py::arg("body"), py::arg("X"),
      "(D (3N x k), [Lambda (3 x 3)] * k) for node coordinates X (3N x k)");
  m.def(
      "fe_reference_stiffness_product",
      [](const domain::Domain& d, Id id, const MatX& V) -> MatX {
        return body::ReferenceStiffness(GetFeBody(d, id, "MODAL_ANALYSIS")) * V;
      },
      py::arg("domain"), py::arg("body"), py::arg("V"), "K0 V (K0 at the referential nodes)");
  m.def(
      "reduced_base",
      [](const domain::Domain& d, Id id) -> py::object {
        const body::Body* b = d.FindBody(id);
        const body::ReducedFeBody* rb = b ? b->AsReducedFeBody() : nullptr;
        if (!rb) return py::none();
        return py::make_tuple(static_cast<int>(rb->form()), rb->base(), rb->eigenvalues());
      },
      py::arg("domain"), py::arg("body"),
      "(form code, E (3N x n), evals) of a BC-RO / BC-MODAL body, None for other bodies");
  m.def(
      "fe_stiffness_triplets",
      [](const domain::Domain& d, Id id, const std::string& routine) {
        const body::SparseMat K = GetFeBody(d, id, routine).Stiffness(true);
        std::vector<int> rows, cols;
        std::vector<double> values;
        for (int c = 0; c < K.outerSize(); ++c)
          for (body::SparseMat::InnerIterator it(K, c); it; ++it) {
            rows.push_back(static_cast<int>(it.row()));
            cols.push_back(static_cast<int>(it.col()));
            values.push_back(it.value());
          }
        return py::make_tuple(static_cast<int>(K.rows()), rows, cols, values);
      },
      py::arg("domain"), py::arg("body"), py::arg("routine") = "BODY_MM_EXPORT",
      "(size, rows, cols, values) of the tangent stiffness K = -d f_int / dq at the current q");
  m.def(
      "fe_referential_nodes",
      [](const domain::Domain& d, Id id, const std::string& routine) {
        const geometry::Mesh& mesh = GetFeBody(d, id, routine).mesh();
        MatX X(static_cast<Eigen::Index>(mesh.nodes.size()), 3);
        for (Eigen::Index a = 0; a < X.rows(); ++a) X.row(a) = mesh.nodes[a].transpose();
        return X;
      },
      py::arg("domain"), py::arg("body"), py::arg("routine") = "RIGID_TO_FEM",
      "referential node coordinates (N x 3); errors name `routine`");
  m.def(
      "fe_lumped_mass",
      [](const domain::Domain& d, Id id, const std::string& routine) -> VecX {
        return GetFeBody(d, id, routine).lumped_mass();
      },
      py::arg("domain"), py::arg("body"), py::arg("routine") = "MODAL_ANALYSIS",
      "lumped mass per dof (3N); errors name `routine`");
}

}  // namespace solfec::bindings
