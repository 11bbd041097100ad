/* Reads an FCLIB local problem with HDF5's high-level H5LT calls, the calls FCLIB's
 * fclib_read_local makes (and so Siconos' frictionContact_fclib_read), and prints one line:
 * "spacedim m n nz nzmax sum(x) sum(q) sum(mu) title". Exit status 1 on any read failure.
 * Build: gcc fclib_h5lt_read.c -I/usr/include/hdf5/serial -lhdf5_serial_hl -lhdf5_serial */
#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>

static int ReadInt(hid_t loc, const char* name, int* out) {
  return H5LTread_dataset_int(loc, name, out) < 0 ? 1 : 0;
}

static double Sum(const double* v, int n) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += v[k];
  return s;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s problem.h5\n", argv[0]);
    return 2;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return 1;
  int spacedim = 0, m = 0, n = 0, nz = 0, nzmax = 0;
  if (ReadInt(file, "/fclib_local/spacedim", &spacedim)) return 1;
  hid_t w = H5Gopen2(file, "/fclib_local/W", H5P_DEFAULT);
  if (w < 0) return 1;
  if (ReadInt(w, "nzmax", &nzmax) || ReadInt(w, "m", &m) || ReadInt(w, "n", &n) ||
      ReadInt(w, "nz", &nz))
    return 1;
  if (spacedim != 2 && spacedim != 3) return 1;
  int np = nz >= 0 ? nz : (nz == -1 ? n + 1 : m + 1);
  int ni = nz >= 0 ? nz : nzmax;
  int* p = malloc(sizeof(int) * (np > 0 ? np : 1));
  int* i = malloc(sizeof(int) * (ni > 0 ? ni : 1));
  double* x = malloc(sizeof(double) * (nzmax > 0 ? nzmax : 1));
  if (H5LTread_dataset_int(w, "p", p) < 0 || H5LTread_dataset_int(w, "i", i) < 0 ||
      H5LTread_dataset_double(w, "x", x) < 0)
    return 1;
  H5Gclose(w);
  hid_t v = H5Gopen2(file, "/fclib_local/vectors", H5P_DEFAULT);
  if (v < 0) return 1;
  double* q = malloc(sizeof(double) * (m > 0 ? m : 1));
  double* mu = malloc(sizeof(double) * (m / spacedim > 0 ? m / spacedim : 1));
  if (H5LTread_dataset_double(v, "q", q) < 0 || H5LTread_dataset_double(v, "mu", mu) < 0)
    return 1;
  H5Gclose(v);
  char* title = NULL;
  hid_t info = H5Gopen2(file, "/fclib_local/info", H5P_DEFAULT);
  if (info >= 0 && H5LTfind_dataset(info, "title")) {
    hsize_t dim;
    H5T_class_t cls;
    size_t size;
    if (H5LTget_dataset_info(info, "title", &dim, &cls, &size) < 0 || cls != H5T_STRING)
      return 1;
    title = calloc(size + 1, 1);
    if (H5LTread_dataset_string(info, "title", title) < 0) return 1;
    H5Gclose(info);
  }
  printf("%d %d %d %d %d %.17g %.17g %.17g %s\n", spacedim, m, n, nz, nzmax, Sum(x, nzmax),
         Sum(q, m), Sum(mu, m / spacedim), title ? title : "");
  free(p), free(i), free(x), free(q), free(mu), free(title);
  H5Fclose(file);
  return 0;
}
