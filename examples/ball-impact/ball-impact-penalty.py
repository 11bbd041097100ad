# Ball impact (manual tutorial 5.2) as in the manual: PENALTY_SOLVER with 'SPRING_DASHPOT'
# contacts, spring 1E9 and dashpots 0, 1E6 and 1E7 (elastic, partly dissipative and nearly
# plastic impacts), three SOLFEC objects and kinetic energy histories.
# Run it twice:  solfec ball-impact-penalty.py   (computes; WRITE mode)
#                solfec ball-impact-penalty.py   (READ mode: plots ball-impact-penalty.png)
import os


def ball_impact(step, stop, spring_value, dashpot_value, output):
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
    SURFACE_MATERIAL(solfec, model='SPRING_DASHPOT', friction=0.0,
                     spring=spring_value, dashpot=dashpot_value)
    GRAVITY(solfec, (0, 0, -10))
    xs = PENALTY_SOLVER()
    RUN(solfec, xs, stop)
    return solfec


step = 1E-3
stop = 2.0
spring = 1E+9
sol1 = ball_impact(step, stop, spring, 0E0, 'out/tutorial/ball-impact-penalty-1')
sol2 = ball_impact(step, stop, spring, 1E6, 'out/tutorial/ball-impact-penalty-2')
sol3 = ball_impact(step, stop, spring, 1E7, 'out/tutorial/ball-impact-penalty-3')

if not VIEWER() and sol1.mode == 'READ':
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    for sol, name in ((sol1, 'kin (0)'), (sol2, 'kin (1E6)'), (sol3, 'kin (1E7)')):
        th = HISTORY(sol, [(sol, 'KINETIC')], 0, stop)
        plt.plot(th[0], th[1], lw=2, label=name)
    plt.xlim(0, stop)
    plt.ylim(-10000, 110000)
    plt.xlabel('time [s]')
    plt.ylabel('kinetic energy [J]')
    plt.legend(loc='upper right')
    png = os.path.join('out', 'tutorial', 'ball-impact-penalty.png')
    plt.savefig(png)
    print('ball-impact-penalty: wrote', png)
else:
    print('ball-impact-penalty: computed; run the deck again to plot the kinetic energy')
