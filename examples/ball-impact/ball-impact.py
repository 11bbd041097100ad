# Ball impact (manual tutorial 5.2) with three SOLFEC objects and kinetic energy histories.
# The manual uses the PENALTY_SOLVER with spring-dashpot contacts; this version uses the
# Gauss-Seidel solver with Signorini-Coulomb contacts and three restitution coefficients.
# Run it twice:  solfec ball-impact.py   (computes; WRITE mode)
#                solfec ball-impact.py   (READ mode: plots ball-impact.png)
import os


def ball_impact(step, stop, restitution, output):
    w = 2
    l = 2
    h = 1
    floor_vid = 1
    floor_sid = 1
    floor = HULL([-w/2, -l/2, -h,
                   w/2, -l/2, -h,
                   w/2,  l/2, -h,
                  -w/2,  l/2, -h,
                  -w/2, -l/2,  0,
                   w/2, -l/2,  0,
                   w/2,  l/2,  0,
                  -w/2,  l/2,  0], floor_vid, floor_sid)
    solfec = SOLFEC('DYNAMIC', step, output)
    solfec.verbose = 'OFF'
    bulk = BULK_MATERIAL(solfec, model='KIRCHHOFF', young=15E9, poisson=0.3, density=2E3)
    BODY(solfec, 'OBSTACLE', floor, bulk)
    sphere = SPHERE((0, 0, 1.0), 1, 1, 1)
    body = BODY(solfec, 'RIGID', sphere, bulk)
    INITIAL_VELOCITY(body, (0, 0, -5), (0, 0, 0))
    SURFACE_MATERIAL(solfec, model='SIGNORINI_COULOMB', friction=0.0, restitution=restitution)
    GRAVITY(solfec, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1E-8, 1000)
    RUN(solfec, gs, stop)
    return solfec


step = 1E-3
stop = 2.0
sol1 = ball_impact(step, stop, 1.0, 'out/tutorial/ball-impact-1')
sol2 = ball_impact(step, stop, 0.5, 'out/tutorial/ball-impact-2')
sol3 = ball_impact(step, stop, 0.0, 'out/tutorial/ball-impact-3')

if not VIEWER() and sol1.mode == 'READ':
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    for sol, name in ((sol1, 'restitution 1.0'), (sol2, 'restitution 0.5'),
                      (sol3, 'restitution 0.0')):
        th = HISTORY(sol, [(sol, 'KINETIC')], 0, stop)
        plt.plot(th[0], th[1], lw=2, label=name)
    plt.xlim(0, stop)
    plt.xlabel('time [s]')
    plt.ylabel('kinetic energy [J]')
    plt.legend(loc='upper right')
    png = os.path.join('out', 'tutorial', 'ball-impact.png')
    plt.savefig(png)
    print('ball-impact: wrote', png)
else:
    print('ball-impact: computed; run the deck again to plot the kinetic energy histories')
