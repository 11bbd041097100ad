"""Cauchy stresses of the BULK_MATERIAL models (as src/material/hyperelastic.h), vectorized
over deformation gradients F of shape (3, 3) or (m, 3, 3):
  KIRCHHOFF   S = lambda tr(E) I + 2 mu E, E = (C - I)/2
  NEO_HOOKEAN S = mu (I - C^-1) + lambda ln(J) C^-1
  BLATZ_KO    S = mu (J^(2 beta) C^-1 - C^-2), beta = nu / (1 - 2 nu)
with C = F^T F, J = det F, lambda = E nu/((1+nu)(1-2nu)), mu = E/(2+2nu);
sigma = F S F^T / J."""
import numpy as np

MODELS = ("KIRCHHOFF", "NEO_HOOKEAN", "BLATZ_KO")


def second_piola(F, young, poisson, model="KIRCHHOFF"):
    """S of F (3, 3) or (m, 3, 3)."""
    F = np.asarray(F, dtype=float)
    lam = young * poisson / ((1 + poisson) * (1 - 2 * poisson))
    mu = young / (2 + 2 * poisson)
    eye = np.eye(3)
    C = np.swapaxes(F, -1, -2) @ F
    if model == "KIRCHHOFF":
        E = 0.5 * (C - eye)
        return lam * np.trace(E, axis1=-2, axis2=-1)[..., None, None] * eye + 2 * mu * E
    J = np.linalg.det(F)
    if np.any(J <= 0):
        raise ValueError(f"STRESS: det F <= 0 (inverted element) for material model '{model}'")
    Ci = np.linalg.inv(C)
    lnJ = np.log(J)[..., None, None]
    if model == "NEO_HOOKEAN":
        return mu * (eye - Ci) + lam * lnJ * Ci
    if model == "BLATZ_KO":
        beta = poisson / (1 - 2 * poisson)
        return mu * (np.exp(2 * beta * lnJ) * Ci - Ci @ Ci)
    raise ValueError(f"BULK_MATERIAL: unknown model '{model}'; use one of {', '.join(MODELS)}")


def cauchy(F, young, poisson, model="KIRCHHOFF"):
    """sigma = F S F^T / det F and von Mises sqrt(3/2 dev:dev) of F (3, 3) or (m, 3, 3)."""
    F = np.asarray(F, dtype=float)
    S = second_piola(F, young, poisson, model)
    sig = F @ S @ np.swapaxes(F, -1, -2) / np.linalg.det(F)[..., None, None]
    dev = sig - np.trace(sig, axis1=-2, axis2=-1)[..., None, None] / 3 * np.eye(3)
    mises = np.sqrt(1.5 * np.sum(dev * dev, axis=(-2, -1)))
    return sig, mises
