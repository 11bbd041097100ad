"""Constraint solvers of the deck language (manual 4.1.9, 4.1.10): GAUSS_SEIDEL_SOLVER,
PENALTY_SOLVER, NEWTON_SOLVER (4.1.11, with locdyn='OFF' the former BODY_SPACE_SOLVER of
4.1.12, also under its manual name), Solfec-1.0's TEST_SOLVER (run as NEWTON_SOLVER) and the
extension AUTO_SOLVER (Newton and Gauss-Seidel taking turns), and Solfec-1.0's SICONOS_SOLVER
(Siconos numerics, when this build links it)."""

import inspect
import os
import sys

from . import _args as A
from . import _solfec

__all__ = ["GAUSS_SEIDEL_SOLVER", "PENALTY_SOLVER", "NEWTON_SOLVER", "TEST_SOLVER",
           "BODY_SPACE_SOLVER", "AUTO_SOLVER", "SICONOS_SOLVER", "SolverError"]

SolverError = _solfec.SolverError

_DIAG = ("SEMISMOOTH_NEWTON", "PROJECTED_GRADIENT", "DE_SAXCE_FENG", "PROJECTED_NEWTON")
_GS_VARIANTS = ("FULL", "MIDDLE_JACOBI", "BOUNDARY_JACOBI", "SIMPLIFIED")


class _IterationsHistory:
    """Solfec-1.0 member itershist: set 'ON' to record the iterations of every later solve
    (setting it clears the list), then read it as a list of ints ([] while 'OFF')."""

    @property
    def itershist(self):
        return list(self._s.itershist)

    @itershist.setter
    def itershist(self, v):
        self._s.itershist_on = A.onoff(v, type(self).__name__, "itershist")


def _deck_stacklevel():
    """warnings.warn's stacklevel, for the caller of _deck_stacklevel, that names the first
    frame outside this package (the deck's line)."""
    here = os.path.dirname(os.path.abspath(__file__))
    f, level = sys._getframe(1), 1
    while f is not None and os.path.dirname(os.path.abspath(f.f_code.co_filename)) == here:
        f, level = f.f_back, level + 1
    return level


def _callback_args(callback, solver, args):
    """The failure callback's arguments: the manual's callback(solver, *data) when the
    callback takes one more positional argument than data holds, else Solfec-1.0's
    callback(*data)."""
    try:
        inspect.signature(callback).bind(solver, *args)
        return (solver, *args)
    except TypeError:
        return args
    except ValueError:  # no signature (a builtin): the manual's form
        return (solver, *args)


class GAUSS_SEIDEL_SOLVER(_IterationsHistory):
    """GAUSS_SEIDEL_SOLVER(epsilon, maxiter | meritval, failure, diagepsilon, diagmaxiter,
    diagsolver, data, callback): nonlinear block Gauss-Seidel (manual 9.1). As Solfec-1.0
    (stopping='BOTH', default) it stops when the relative reaction change is at most epsilon
    and the merit function (manual 8.1) at most meritval; meritval defaults to 1.0, and a
    meritval >= 1 turns the merit test off. stopping='EITHER' (the manual's Algorithm 9.1)
    stops when either holds (meritval then defaults to the manual's 1E-3); stopping='RESIDUAL'
    (extension) stops once the relative natural-map residual (Siconos' fc3d error of the
    step's problem, impulse units, read back as `resid`) is <= epsilon. On failure ('CONTINUE', 'EXIT' or 'CALLBACK') it continues, raises SolverError,
    or calls callback(solver, *data) (a return of 0 stops the run). Extensions: anderson
    (Anderson acceleration depth of the sweeps, default 5, 0 = plain Gauss-Seidel), omega
    (over-relaxation factor in (0, 2), default 1) and residual (default 0 = off: also stop
    once the relative natural-map residual, Siconos' fc3d error, is <= residual)."""

    def __init__(self, epsilon, maxiter, meritval=None, failure="CONTINUE", diagepsilon=None,
                 diagmaxiter=None, diagsolver="SEMISMOOTH_NEWTON", data=None, callback=None,
                 anderson=5, omega=1.0, residual=0.0, stopping="BOTH"):
        self._variant = "FULL"
        self._innerloops = 1
        r = "GAUSS_SEIDEL_SOLVER"
        self._s = _solfec.GaussSeidelSolver()
        self.epsilon = epsilon
        self.maxiter = maxiter
        self.stopping = stopping
        if meritval is None:  # Solfec-1.0's 1.0 (merit test off); the manual's 1E-3 for 'EITHER'
            meritval = 1e-3 if self.stopping == "EITHER" else 1.0
        self.meritval = meritval
        self._failure = A.choice(failure, r, "failure", ("CONTINUE", "EXIT", "CALLBACK"))
        eps, mer = self._s.epsilon, self._s.meritval
        self.diagepsilon = (min(eps, mer, 1e-4) / 100.0) if diagepsilon is None else diagepsilon
        self.diagmaxiter = max(100, self._s.maxiter // 100) if diagmaxiter is None else diagmaxiter
        self.diagsolver = diagsolver
        if callback is not None:
            A.callable_(callback, r, "callback")
        elif self._failure == "CALLBACK":  # as Solfec-1.0
            raise ValueError("GAUSS_SEIDEL_SOLVER: failure 'CALLBACK' needs argument 'callback' "
                             "(a callable)")
        self._callback = callback
        self._data = data
        self.anderson = anderson
        self.omega = omega
        self.residual = residual

    def _set(self, name, value, kind):
        r = f"GAUSS_SEIDEL_SOLVER"
        if kind == "pos":
            v = A.positive(value, r, name)
            if name in ("epsilon", "diagepsilon") and v >= 1:  # relative accuracies
                # Solfec-1.0 accepts any positive value (lng.c; corpus decks use 1 and 10)
                import warnings
                what = ("the relative change meets it after the first sweep, so only the merit "
                        "test (meritval < 1) stops the iterations, or each solve ends after one "
                        "sweep (meritval >= 1, the default)" if name == "epsilon" else
                        "the diagonal block solver meets it after its first iteration")
                warnings.warn(f"{r}: argument '{name}' = {value!r} is not below 1: {what}; a "
                              f"value in (0, 1) makes it a relative accuracy",
                              stacklevel=_deck_stacklevel())
        elif kind == "int":
            v = A.integer(value, r, name)
            if v < 1:
                raise ValueError(f"{r}: argument '{name}' must be >= 1, got {v}")
        setattr(self._s, name, v)

    epsilon = property(lambda s: s._s.epsilon, lambda s, v: s._set("epsilon", v, "pos"))
    maxiter = property(lambda s: s._s.maxiter, lambda s, v: s._set("maxiter", v, "int"))
    meritval = property(lambda s: s._s.meritval, lambda s, v: s._set("meritval", v, "pos"))
    diagepsilon = property(lambda s: s._s.diagepsilon, lambda s, v: s._set("diagepsilon", v, "pos"))
    diagmaxiter = property(lambda s: s._s.diagmaxiter, lambda s, v: s._set("diagmaxiter", v, "int"))

    @property
    def anderson(self):
        return self._s.anderson

    @anderson.setter
    def anderson(self, v):
        v = A.integer(v, "GAUSS_SEIDEL_SOLVER", "anderson")
        if not 0 <= v <= 50:
            raise ValueError(f"GAUSS_SEIDEL_SOLVER: argument 'anderson' must lie in [0, 50], got {v}")
        self._s.anderson = v

    @property
    def omega(self):
        return self._s.omega

    @omega.setter
    def omega(self, v):
        v = A.number(v, "GAUSS_SEIDEL_SOLVER", "omega")
        if not 0.0 < v < 2.0:
            raise ValueError(f"GAUSS_SEIDEL_SOLVER: argument 'omega' must lie in (0, 2), got {v}")
        self._s.omega = v

    @property
    def residual(self):
        return self._s.residual

    @residual.setter
    def residual(self, v):
        # Extension: also stop once Siconos' relative natural-map residual is <= residual.
        self._s.residual = A.positive(v, "GAUSS_SEIDEL_SOLVER", "residual", allow_zero=True)

    @property
    def diagsolver(self):
        return self._s.diagsolver

    @diagsolver.setter
    def diagsolver(self, v):
        self._s.diagsolver = A.choice(v, "GAUSS_SEIDEL_SOLVER", "diagsolver", _DIAG)

    @property
    def reverse(self):
        return "ON" if self._s.reverse else "OFF"

    @reverse.setter
    def reverse(self, v):
        self._s.reverse = A.onoff(v, "GAUSS_SEIDEL_SOLVER", "reverse")

    @property
    def stopping(self):
        return self._s.stopping

    @stopping.setter
    def stopping(self, v):
        self._s.stopping = A.choice(v, "GAUSS_SEIDEL_SOLVER", "stopping",
                                    ("BOTH", "EITHER", "RESIDUAL"))

    # Parallel-run members of the manual (4.1.9, Table 4.8), used by solfec-mpi only:
    # variant 'FULL' (default), 'MIDDLE_JACOBI', 'BOUNDARY_JACOBI', 'SIMPLIFIED'; innerloops
    # (sweeps of each rank's rows per global iteration; docs/parallel.md).
    @property
    def variant(self):
        return self._variant

    @variant.setter
    def variant(self, v):
        self._variant = A.choice(v, "GAUSS_SEIDEL_SOLVER", "variant", _GS_VARIANTS)
        self._s.variant = _GS_VARIANTS.index(self._variant)  # solfec-mpi only

    @property
    def innerloops(self):
        return self._innerloops

    @innerloops.setter
    def innerloops(self, v):
        v = A.integer(v, "GAUSS_SEIDEL_SOLVER", "innerloops")
        if v < 1:
            raise ValueError(f"GAUSS_SEIDEL_SOLVER: argument 'innerloops' must be >= 1, got {v}")
        self._s.innerloops = v  # solfec-mpi only
        self._innerloops = v

    failure = property(lambda s: s._failure)
    error = property(lambda s: s._s.last_stats.error)
    iters = property(lambda s: s._s.last_stats.iters)
    rerhist = property(lambda s: list(s._s.last_stats.rerhist))
    merhist = property(lambda s: list(s._s.last_stats.merhist))
    merit = property(lambda s: s._s.last_stats.merit)
    # the relative natural-map residual of the last solve's reactions (Siconos' fc3d error
    # of the step's problem in the impulse h R; docs/deck-language.md)
    resid = property(lambda s: s._s.last_stats.residual)

    # The failure policy seen by RUN: returns False to stop the run.
    def _on_failure(self, stats):
        if self._failure == "CONTINUE":
            return True
        if self._failure == "EXIT" or self._callback is None:
            raise SolverError(f"GAUSS_SEIDEL_SOLVER: no convergence in {stats.iters} iterations "
                              f"(merit {stats.merit:.3e}, error {stats.error}); failure='EXIT'")
        data = self._data
        args = () if data is None else (data if isinstance(data, tuple) else (data,))
        ret = self._callback(*_callback_args(self._callback, self, args))
        return not (ret is not None and ret == 0)

    def __repr__(self):
        return f"<GAUSS_SEIDEL_SOLVER epsilon={self.epsilon} maxiter={self.maxiter}>"


class PENALTY_SOLVER(_IterationsHistory):
    """PENALTY_SOLVER(| variant): penalty solver (manual 9.2, Algorithm 9.4). Every contact
    gets its reaction from the spring-dashpot law of its SURFACE_MATERIAL (manual 7.1.2;
    'SIGNORINI_COULOMB' interfaces are treated as 'SPRING_DASHPOT' ones, so they need a
    spring > 0); bilateral constraints (FIX_POINT, FIX_DIRECTION, SET_VELOCITY, PUT_RIGID_LINK)
    are then solved by Gauss-Seidel with the contact forces fixed. variant: 'IMPLICIT'
    (default, eq. 7.14) or 'EXPLICIT' (R_N = -spring gap - dashpot U_N). Extensions: the
    contact pass is repeated (with the current reactions of the other constraints) until the
    contact reactions change by at most epsilon (relative, default 1e-8) or maxiter sweeps
    (default 1000)."""

    def __init__(self, variant="IMPLICIT", epsilon=1e-8, maxiter=1000):
        self._s = _solfec.PenaltySolver()
        self.variant = variant
        self.epsilon = epsilon
        self.maxiter = maxiter

    @property
    def epsilon(self):
        return self._s.epsilon

    @epsilon.setter
    def epsilon(self, v):
        self._s.epsilon = A.positive(v, "PENALTY_SOLVER", "epsilon")

    @property
    def maxiter(self):
        return self._s.maxiter

    @maxiter.setter
    def maxiter(self, v):
        v = A.integer(v, "PENALTY_SOLVER", "maxiter")
        if v < 1:
            raise ValueError(f"PENALTY_SOLVER: argument 'maxiter' must be >= 1, got {v}")
        self._s.maxiter = v

    @property
    def variant(self):
        return self._s.variant

    @variant.setter
    def variant(self, v):
        self._s.variant = A.choice(v, "PENALTY_SOLVER", "variant", ("IMPLICIT", "EXPLICIT"))

    failure = property(lambda s: "CONTINUE")
    error = property(lambda s: s._s.last_stats.error)
    iters = property(lambda s: s._s.last_stats.iters)
    merit = property(lambda s: s._s.last_stats.merit)

    # Bilateral Gauss-Seidel failures are reported in the statistics only ('CONTINUE').
    def _on_failure(self, stats):
        return True

    def __repr__(self):
        return f"<PENALTY_SOLVER variant={self.variant}>"


class NEWTON_SOLVER(_IterationsHistory):
    """NEWTON_SOLVER(| meritval, maxiter, locdyn, linminiter, resdec, bot, which, stepcontrol,
    linmaxiter, maxmatvec, epsilon, delta, omega, nonmonlength, gsflag, linver, theta,
    reldelta): semismooth Newton
    method (manual 4.1.11) on the Alart-Curnier form of every contact (equality constraints as
    linear rows), with restarted right-preconditioned GMRES for the linear steps (restart length
    linmaxiter, at least linminiter iterations, relative residual decrease epsilon = resdec),
    a nonmonotone line search (memory nonmonlength) and the merit function of manual 8.1 as the
    termination test (meritval). delta regularises the Jacobian (J + delta I). On failure (no
    progress or maxiter) the error is 'DIVERGED'; with gsflag 'ON' (default) Gauss-Seidel
    continues from the Newton iterate and 'fallback' is True. locdyn='OFF' (the former
    BODY_SPACE_SOLVER) never assembles the off-diagonal blocks of W: products with W go
    through the bodies (h H A^-1 H^T x); the Gauss-Seidel fallback assembles W first.
    Solfec-1.0 arguments without a meaning here (bot, which, stepcontrol, maxmatvec, omega,
    linver, theta, reldelta) are accepted and ignored. SPRING_DASHPOT contacts are not
    supported (use PENALTY_SOLVER). Members mvhist (GMRES products with W per Newton step)
    and itershist (iterations of every solve, after itershist = 'ON'). Extensions: smoothing
    (default 10; 0 = off): Gauss-Seidel sweeps from the Newton iterate when the line search
    fails or the merit stalls (rounds double), then Newton continues; proximal (default 0 =
    off): proximal factor of the Newton matrix for rank-deficient W; residual (default 0 =
    off): also stop once the relative natural-map residual, Siconos' fc3d error, is <=
    residual."""

    _routine = "NEWTON_SOLVER"

    def __init__(self, meritval=1e-8, maxiter=1000, locdyn="ON", linminiter=5, resdec=None,
                 bot=None, which=None, stepcontrol=None, linmaxiter=10, maxmatvec=None,
                 epsilon=0.25, delta=0.0, omega=None, nonmonlength=5, gsflag="ON",
                 linver="GMRES", theta=None, reldelta=None, proximal=0.0, smoothing=10,
                 residual=0.0):
        r = self._routine
        self._s = _solfec.NewtonSolver()
        self.meritval = meritval
        self.maxiter = maxiter
        self.linminiter = linminiter
        self.linmaxiter = linmaxiter
        self.epsilon = epsilon if resdec is None else resdec
        self.delta = delta
        self.nonmonlength = nonmonlength
        self.gsflag = gsflag
        self.proximal = proximal
        self.smoothing = smoothing
        self.residual = residual
        self.locdyn = locdyn
        self.linver = linver
        # Solfec-1.0 arguments kept as members but without a meaning here
        self.maxmatvec = 10000 if maxmatvec is None else maxmatvec
        self.theta = 0.25 if theta is None else theta
        self.omega = 1e-10 if omega is None else omega
        if reldelta is not None:
            A.choice(reldelta, r, "reldelta", ("OFF", "avgWii", "minWii", "maxWii"))

    # linver: GMRES (the linear solver used) or DIAG (accepted; GMRES is used)
    linver = property(lambda s: s._linver,
                      lambda s, v: setattr(s, "_linver",
                                           A.choice(v, s._routine, "linver", ("GMRES", "DIAG"))))
    maxmatvec = property(lambda s: s._maxmatvec,
                         lambda s, v: setattr(s, "_maxmatvec", s._at_least(v, "maxmatvec", 1)))
    theta = property(lambda s: s._theta,
                     lambda s, v: setattr(s, "_theta", A.positive(v, s._routine, "theta")))
    omega = property(lambda s: s._omega,
                     lambda s, v: setattr(s, "_omega", A.positive(v, s._routine, "omega")))

    def _at_least(self, v, name, low):
        v = A.integer(v, self._routine, name)
        if v < low:
            raise ValueError(f"{self._routine}: argument '{name}' must be >= {low}, got {v}")
        return v

    @property
    def locdyn(self):
        return "ON" if self._s.locdyn else "OFF"

    @locdyn.setter
    def locdyn(self, v):
        self._s.locdyn = A.choice(v, self._routine, "locdyn", ("ON", "OFF")) == "ON"

    def _int(self, name, v, low):
        v = A.integer(v, self._routine, name)
        if v < low:
            raise ValueError(f"{self._routine}: argument '{name}' must be >= {low}, got {v}")
        setattr(self._s, name, v)

    meritval = property(lambda s: s._s.meritval,
                        lambda s, v: setattr(s._s, "meritval",
                                             A.positive(v, s._routine, "meritval")))
    maxiter = property(lambda s: s._s.maxiter, lambda s, v: s._int("maxiter", v, 1))
    linminiter = property(lambda s: s._s.linminiter, lambda s, v: s._int("linminiter", v, 0))
    linmaxiter = property(lambda s: s._s.linmaxiter, lambda s, v: s._int("linmaxiter", v, 1))
    nonmonlength = property(lambda s: s._s.nonmonlength,
                            lambda s, v: s._int("nonmonlength", v, 1))
    # Extensions: Gauss-Seidel smoothing sweeps when Newton stalls (0: off) and the proximal
    # factor of the Newton matrix (0: off), see docs/deck-language.md.
    smoothing = property(lambda s: s._s.smoothing, lambda s, v: s._int("smoothing", v, 0))
    proximal = property(lambda s: s._s.proximal,
                        lambda s, v: setattr(s._s, "proximal",
                                             A.positive(v, s._routine, "proximal",
                                                        allow_zero=True)))
    residual = property(lambda s: s._s.residual,
                        lambda s, v: setattr(s._s, "residual",
                                             A.positive(v, s._routine, "residual",
                                                        allow_zero=True)))

    @property
    def epsilon(self):
        return self._s.resdec

    @epsilon.setter
    def epsilon(self, v):
        v = A.number(v, self._routine, "epsilon")
        if not 0.0 < v < 1.0:
            raise ValueError(f"{self._routine}: argument 'epsilon' must lie in (0, 1), got {v}")
        self._s.resdec = v

    resdec = epsilon

    @property
    def delta(self):
        return self._s.delta

    @delta.setter
    def delta(self, v):
        v = A.number(v, self._routine, "delta")
        if not v >= 0.0:
            raise ValueError(f"{self._routine}: argument 'delta' must be >= 0, got {v}")
        self._s.delta = v

    @property
    def gsflag(self):
        return "ON" if self._s.gsflag else "OFF"

    @gsflag.setter
    def gsflag(self, v):
        self._s.gsflag = A.onoff(v, self._routine, "gsflag")

    failure = property(lambda s: "CONTINUE")
    error = property(lambda s: s._s.last_stats.error)
    iters = property(lambda s: s._s.last_stats.iters)
    merhist = property(lambda s: list(s._s.last_stats.merhist))
    mvhist = property(lambda s: list(s._s.last_stats.mvhist))
    merit = property(lambda s: s._s.last_stats.merit)
    resid = property(lambda s: s._s.last_stats.residual)  # as GAUSS_SEIDEL_SOLVER's
    message = property(lambda s: s._s.last_stats.message)
    fallback = property(lambda s: s._s.fell_back)
    linear_iters = property(lambda s: s._s.linear_iters)
    smoothing_sweeps = property(lambda s: s._s.smoothing_sweeps)

    # Failures are reported in the statistics only (after the Gauss-Seidel fallback).
    def _on_failure(self, stats):
        return True

    def __repr__(self):
        return f"<{self._routine} meritval={self.meritval} maxiter={self.maxiter}>"


class TEST_SOLVER(NEWTON_SOLVER):
    """TEST_SOLVER(| meritval, maxiter, maxmatvec, linmaxiter, epsilon, delta, omega):
    Solfec-1.0's experimental projected Newton solver, run here as NEWTON_SOLVER with these
    arguments (in Solfec-1.0's order and defaults: meritval 1e-8, maxiter 1000, maxmatvec 1000,
    linmaxiter 10, epsilon 0.25, delta 5.1e-8, omega 1e-9; maxmatvec and omega are accepted and
    ignored, as by NEWTON_SOLVER). Members as NEWTON_SOLVER (meritval, maxiter, linmaxiter,
    merhist, mvhist, iters, ...)."""

    _routine = "TEST_SOLVER"

    def __init__(self, meritval=1e-8, maxiter=1000, maxmatvec=1000, linmaxiter=10,
                 epsilon=0.25, delta=5.1e-8, omega=1e-9):
        super().__init__(meritval=meritval, maxiter=maxiter, maxmatvec=maxmatvec,
                         linmaxiter=linmaxiter, epsilon=epsilon, delta=delta, omega=omega)


class BODY_SPACE_SOLVER(NEWTON_SOLVER):
    """BODY_SPACE_SOLVER(| meritval, maxiter): the manual's projected inexact Newton solver in
    the body space (4.1.12, without assembling the local dynamics), which Solfec-1.0 replaced
    by NEWTON_SOLVER(locdyn='OFF'): run as that, with the manual's defaults meritval 1e-5 and
    maxiter 20. Members as NEWTON_SOLVER (iters, merhist, ...)."""

    _routine = "BODY_SPACE_SOLVER"

    def __init__(self, meritval=1e-5, maxiter=20):
        super().__init__(meritval=meritval, maxiter=maxiter, locdyn="OFF")
        self.smooth = 0.0

    # the manual's derivative smoothing coefficient (>= 0): accepted; the Newton solver does
    # no derivative smoothing (its `smoothing` are Gauss-Seidel sweeps)
    smooth = property(lambda s: s._smooth,
                      lambda s, v: setattr(s, "_smooth",
                                           A.positive(v, s._routine, "smooth", allow_zero=True)))


class AUTO_SOLVER(_IterationsHistory):
    """AUTO_SOLVER(| meritval, maxiter, first, stallfactor, newtonwindow, gswindow): an
    extension (not in Solfec-1.0) running NEWTON_SOLVER and GAUSS_SEIDEL_SOLVER by turns on
    each time step's problem. The first solver (first='NEWTON' default, 'GAUSS_SEIDEL', or
    'LAST' = the previous step's winner) runs windows of newtonwindow (default 10) Newton
    iterations or gswindow (default 50) Gauss-Seidel sweeps; a window that does not reduce
    the merit by the factor stallfactor (default 0.5), or stops early, hands over to the
    other solver from the current reactions. The solve ends when the merit (manual 8.1) is
    <= meritval (default 1e-6; that solver wins) or after maxiter (default 1000) iterations
    of both together ('DIVERGED'). Members: winner_history (winner of every solve:
    'NEWTON_SOLVER', 'GAUSS_SEIDEL_SOLVER' or 'NONE'), winner, newton_iters, gs_iters,
    switches (of the last solve), error, iters, merhist, merit, itershist."""

    def __init__(self, meritval=1e-6, maxiter=1000, first="NEWTON", stallfactor=0.5,
                 newtonwindow=10, gswindow=50):
        self._s = _solfec.AutoSolver()
        self.meritval = meritval
        self.maxiter = maxiter
        self.first = first
        self.stallfactor = stallfactor
        self.newtonwindow = newtonwindow
        self.gswindow = gswindow

    def _int(self, name, v):
        v = A.integer(v, "AUTO_SOLVER", name)
        if v < 1:
            raise ValueError(f"AUTO_SOLVER: argument '{name}' must be >= 1, got {v}")
        setattr(self._s, name, v)

    meritval = property(lambda s: s._s.meritval,
                        lambda s, v: setattr(s._s, "meritval",
                                             A.positive(v, "AUTO_SOLVER", "meritval")))
    maxiter = property(lambda s: s._s.maxiter, lambda s, v: s._int("maxiter", v))
    newtonwindow = property(lambda s: s._s.newtonwindow, lambda s, v: s._int("newtonwindow", v))
    gswindow = property(lambda s: s._s.gswindow, lambda s, v: s._int("gswindow", v))

    @property
    def stallfactor(self):
        return self._s.stallfactor

    @stallfactor.setter
    def stallfactor(self, v):
        v = A.number(v, "AUTO_SOLVER", "stallfactor")
        if not 0.0 < v < 1.0:
            raise ValueError(f"AUTO_SOLVER: argument 'stallfactor' must lie in (0, 1), got {v}")
        self._s.stallfactor = v

    @property
    def first(self):
        return self._s.first

    @first.setter
    def first(self, v):
        self._s.first = A.choice(v, "AUTO_SOLVER", "first", ("NEWTON", "GAUSS_SEIDEL", "LAST"))

    failure = property(lambda s: "CONTINUE")
    error = property(lambda s: s._s.last_stats.error)
    iters = property(lambda s: s._s.last_stats.iters)
    merhist = property(lambda s: list(s._s.last_stats.merhist))
    merit = property(lambda s: s._s.last_stats.merit)
    message = property(lambda s: s._s.last_stats.message)
    winner = property(lambda s: s._s.last_stats.winner)
    winner_history = property(lambda s: list(s._s.winner_history))
    newton_iters = property(lambda s: s._s.newton_iters)
    gs_iters = property(lambda s: s._s.gs_iters)
    switches = property(lambda s: s._s.switches)

    # Failures are reported in the statistics only.
    def _on_failure(self, stats):
        return True

    def __repr__(self):
        return f"<AUTO_SOLVER meritval={self.meritval} maxiter={self.maxiter} first={self.first}>"


_SICONOS_PACKAGE = "libsiconos-numerics-dev"


def _require_siconos():
    """Raises RuntimeError naming SICONOS_SOLVER and the Debian package when this build does
    not link Siconos numerics (CMake found no libsiconos-numerics-dev)."""
    if not _solfec.siconos_available():
        raise RuntimeError(
            f"SICONOS_SOLVER: this solfec was built without Siconos numerics; install the "
            f"Debian package {_SICONOS_PACKAGE} (bash cmake/setup.sh installs it) and rebuild "
            f"(CMake option SOLFEC_WITH_SICONOS=ON), or use GAUSS_SEIDEL_SOLVER")


class SICONOS_SOLVER(_IterationsHistory):
    """SICONOS_SOLVER(| epsilon=1E-4, maxiter=1000, verbose='OFF'): every step's contact problem
    U = W R + B solved by Siconos numerics (fc3d_driver with the nonsmooth Gauss-Seidel
    SICONOS_FRICTION_3D_NSGS), as Solfec-1.0's SICONOS_SOLVER. epsilon is Siconos' tolerance
    (relative change of the impulses, then its relative residual of the step's problem in
    Moreau-Jean form r = h R, M = W / h), maxiter its sweeps, verbose 'ON' prints Siconos'
    own messages. Contacts only (restitution and cohesion included); a model with FIX_POINT,
    FIX_DIRECTION, SET_VELOCITY, PUT_RIGID_LINK or PUT_SPRING constraints raises an error at
    RUN. Needs a build with Siconos (Debian libsiconos-numerics-dev); without it the
    constructor raises RuntimeError naming the package. Unconverged steps are reported like
    the other solvers' (a warning, error 'DIVERGED')."""

    def __init__(self, epsilon=1e-4, maxiter=1000, verbose="OFF"):
        _require_siconos()
        self._s = _solfec.SiconosSolver()
        self.epsilon = epsilon
        self.maxiter = maxiter
        self.verbose = verbose

    @property
    def epsilon(self):
        return self._s.epsilon

    @epsilon.setter
    def epsilon(self, v):
        self._s.epsilon = A.positive(v, "SICONOS_SOLVER", "epsilon")

    @property
    def maxiter(self):
        return self._s.maxiter

    @maxiter.setter
    def maxiter(self, v):
        v = A.integer(v, "SICONOS_SOLVER", "maxiter")
        if v < 1:
            raise ValueError(f"SICONOS_SOLVER: argument 'maxiter' must be >= 1, got {v}")
        self._s.maxiter = v

    @property
    def verbose(self):
        return "ON" if self._s.verbose else "OFF"

    @verbose.setter
    def verbose(self, v):
        self._s.verbose = A.onoff(v, "SICONOS_SOLVER", "verbose")

    failure = property(lambda s: "CONTINUE")
    error = property(lambda s: s._s.last_stats.error)
    iters = property(lambda s: s._s.last_stats.iters)
    merit = property(lambda s: s._s.last_stats.merit)
    resid = property(lambda s: s._s.last_stats.residual)  # as GAUSS_SEIDEL_SOLVER's
    siconos_error = property(lambda s: s._s.last_stats.relative_error)  # Siconos' own
    message = property(lambda s: s._s.last_stats.message)

    # Failures are reported (RUN's warning, HISTORY 'MERIT') and the run continues.
    def _on_failure(self, stats):
        return True

    def __repr__(self):
        return f"<SICONOS_SOLVER epsilon={self.epsilon} maxiter={self.maxiter}>"
