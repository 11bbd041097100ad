// Element and material evaluation for the Python readers (python/solfec/results.py, xdmf.py,
// history.py, viewer): FeMesh (body/fem/element_mesh.h) locates referential points and
// evaluates a frame's node coordinates; stress_values and cauchy_stresses are the
// BULK_MATERIAL models' Cauchy stresses (body/fem/point_stress.h); mesh_integration_points
// the points of MESH.volume_integration_points and surface_integration_points.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "body/fem/element_mesh.h"
#include "body/fem/mesh_integration.h"
#include "body/fem/point_stress.h"
#include "geometry/shape.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A (N, 3) array of node values as the 3 x N matrix it is in memory (no copy).
Eigen::Map<const Mat3X> NodeMatrix(const Array& a, int num_nodes, const char* arg) {
  if (a.ndim() != 2 || a.shape(1) != 3 || a.shape(0) != num_nodes)
    throw InputError(std::string("FeMesh: argument '") + arg + "' must have shape (" +
                     std::to_string(num_nodes) + ", 3)");
  return Eigen::Map<const Mat3X>(a.data(), 3, num_nodes);
}

// The mesh with the arrays Python reads (made once).
struct PyFeMesh {
  body::fem::ElementMesh mesh;
  py::array_t<double> nodes;
  py::list elements;
  py::array_t<std::int64_t> volids;

  void CheckElement(int e) const {
    if (e < 0 || e >= mesh.num_elements())
      throw InputError("FeMesh: element " + std::to_string(e) + " out of range [0, " +
                       std::to_string(mesh.num_elements()) + ")");
  }
};

PyFeMesh MakeFeMesh(const Array& nodes, const std::vector<std::vector<int>>& elements,
                    const std::vector<int>& volids) {
  if (nodes.ndim() != 2 || nodes.shape(1) != 3)
    throw InputError("FeMesh: argument 'nodes' must have shape (N, 3)");
  if (volids.size() != elements.size())
    throw InputError("FeMesh: " + std::to_string(volids.size()) +
                     " volids (argument 'volids') "
                     "for " +
                     std::to_string(elements.size()) + " elements");
  const auto n = static_cast<int>(nodes.shape(0));
  std::vector<Vec3> X(n);
  for (int i = 0; i < n; ++i) X[i] = Vec3(nodes.at(i, 0), nodes.at(i, 1), nodes.at(i, 2));
  std::vector<geometry::MeshElement> els(elements.size());
  for (size_t e = 0; e < elements.size(); ++e) {
    if (elements[e].size() > 8)
      throw InputError("FeMesh: element " + std::to_string(e) + " has " +
                       std::to_string(elements[e].size()) + " nodes; use 4, 5, 6 or 8");
    els[e].num_nodes = static_cast<int>(elements[e].size());
    std::copy(elements[e].begin(), elements[e].end(), els[e].nodes.begin());
    els[e].volid = volids[e];
  }
  PyFeMesh out{body::fem::ElementMesh(std::move(X), std::move(els)), Array(nodes), py::list(),
               py::array_t<std::int64_t>(static_cast<py::ssize_t>(volids.size()))};
  for (size_t e = 0; e < elements.size(); ++e) {
    out.elements.append(py::array_t<std::int64_t>(
        static_cast<py::ssize_t>(elements[e].size()),
        std::vector<std::int64_t>(elements[e].begin(), elements[e].end()).data()));
    out.volids.mutable_at(e) = volids[e];
  }
  return out;
}

// A BULK_MATERIAL of the model (an unknown name throws naming BULK_MATERIAL) and constants.
material::BulkMaterial Material(double young, double poisson, const std::string& model) {
  material::BulkMaterial m;
  m.young = young;
  m.poisson = poisson;
  m.model = model;
  return m;
}

}  // namespace

void DefineFem(py::module_& m) {
  py::class_<PyFeMesh>(m, "FeMesh")
      .def(py::init(&MakeFeMesh), py::arg("nodes"), py::arg("elements"), py::arg("volids"))
      .def_readonly("nodes", &PyFeMesh::nodes)        // (N, 3) referential nodes
      .def_readonly("elements", &PyFeMesh::elements)  // node index arrays
      .def_readonly("volids", &PyFeMesh::volids)
      .def("locate",  // (element, natural coordinates) of a referential point
           [](const PyFeMesh& f, const Vec3& X) {
             int e;
             Vec3 xi;
             f.mesh.Locate(X, e, xi);
             return std::make_pair(e, xi);
           })
      .def(
          "interpolate",  // sum N_a v_a on element e at xi of node values v (N, 3)
          [](const PyFeMesh& f, int e, const Vec3& xi, const Array& v) {
            f.CheckElement(e);
            return f.mesh.Interpolate(e, xi, NodeMatrix(v, f.mesh.num_nodes(), "v"));
          },
          py::arg("element"), py::arg("xi"), py::arg("v"))
      .def(
          "deformation_gradient",  // F on element e at xi of node coordinates x (N, 3)
          [](const PyFeMesh& f, int e, const Vec3& xi, const Array& x) {
            f.CheckElement(e);
            return f.mesh.DeformationGradient(e, xi, NodeMatrix(x, f.mesh.num_nodes(), "x"));
          },
          py::arg("element"), py::arg("xi"), py::arg("x"))
      .def(
          "centre_gradients",  // F (m, 3, 3) at the element centres
          [](const PyFeMesh& f, const Array& x) {
            const std::vector<Mat3> F =
                f.mesh.CentreGradients(NodeMatrix(x, f.mesh.num_nodes(), "x"));
            py::array_t<double> out(
                {static_cast<py::ssize_t>(F.size()), py::ssize_t{3}, py::ssize_t{3}});
            auto o = out.mutable_unchecked<3>();
            for (size_t k = 0; k < F.size(); ++k)
              for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) o(k, i, j) = F[k](i, j);
            return out;
          },
          py::arg("x"));

  m.def(
      "mesh_integration_points",  // (points (n, 3), weights (n,)) of a shape's single mesh
      [](const geometry::Shape& shape, const std::string& kind, std::optional<int> ident) {
        if (shape.meshes.size() != 1)
          throw InputError("mesh_integration_points: the shape holds " +
                           std::to_string(shape.meshes.size()) + " meshes; it must hold one");
        if (kind != "volume" && kind != "surface")
          throw InputError("mesh_integration_points: unknown kind '" + kind +
                           "' (argument 'kind'); use 'volume' or 'surface'");
        const body::fem::IntegrationPoints ip =
            kind == "volume" ? body::fem::VolumeIntegrationPoints(shape.meshes[0], ident)
                             : body::fem::SurfaceIntegrationPoints(shape.meshes[0], ident);
        const auto n = static_cast<py::ssize_t>(ip.points.size());
        py::array_t<double> x({n, py::ssize_t{3}});
        auto o = x.mutable_unchecked<2>();
        for (py::ssize_t k = 0; k < n; ++k)
          for (int i = 0; i < 3; ++i) o(k, i) = ip.points[k][i];
        return std::make_pair(x, py::array_t<double>(n, ip.weights.data()));
      },
      py::arg("shape"), py::arg("kind"), py::arg("ident") = py::none());
  m.def(
      "stress_values",  // (sx, sy, sz, sxy, sxz, syz, mises) at F (3, 3)
      [](const Mat3& F, double young, double poisson, const std::string& model) {
        return body::MaterialStress(Material(young, poisson, model), F);
      },
      py::arg("F"), py::arg("young"), py::arg("poisson"), py::arg("model") = "KIRCHHOFF");
  m.def(
      "cauchy_stresses",  // (sigma (m, 3, 3), mises (m,)) of F (m, 3, 3); NaN where undefined
      [](const Array& F, double young, double poisson, const std::string& model) {
        if (F.ndim() != 3 || F.shape(1) != 3 || F.shape(2) != 3)
          throw InputError("cauchy_stresses: argument 'F' must have shape (m, 3, 3)");
        const py::ssize_t n = F.shape(0);
        std::vector<Mat3> Fs(n), sigma;
        std::vector<double> mises;
        auto f = F.unchecked<3>();
        for (py::ssize_t k = 0; k < n; ++k)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) Fs[k](i, j) = f(k, i, j);
        body::MaterialStresses(Material(young, poisson, model), Fs, sigma, mises);
        py::array_t<double> sig({n, py::ssize_t{3}, py::ssize_t{3}});
        auto s = sig.mutable_unchecked<3>();
        for (py::ssize_t k = 0; k < n; ++k)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) s(k, i, j) = sigma[k](i, j);
        return std::make_pair(sig, py::array_t<double>(n, mises.data()));
      },
      py::arg("F"), py::arg("young"), py::arg("poisson"), py::arg("model") = "KIRCHHOFF");
}

}  // namespace solfec::bindings
