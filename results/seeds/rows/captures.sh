# The captures behind results/seeds/rows/*.png (issue 35's last seed rows), from the repository root.
set -e
F=./build/src/firelab
O=${1:-/tmp/rows}  # the captures' folder; sheets.py (run in it, /usr/bin/python3) makes the three sheets
export SDL_VIDEODRIVER=offscreen
C="--strategy billboards-instanced,gpu-stateless --width 480 --height 360 --camera fixed --time 2"
$F capture $C --out $O/age
$F capture $C --color-position 1 --out $O/place
$F capture $C --color-position 0.6 --out $O/mixed
N="--strategy billboards-instanced,gpu-stateless --width 480 --height 360 --camera fixed --time 4 --particles 3000 --speed 0,4.5,0 --speed-var 0.6,0.8,0.6 --cone 25 --accel 0,-9.8,0 --accel-var 0,0,0 --drag 0.8 --turbulence 0 --ground bounce --restitution 0.6 --friction 0.2 --gradient nvidia --lifetime 3.5 --lifetime-var 0.5 --size-start 0.07 --size-end 0.05 --camera-target 0,0.6,0"
$F capture $N --drag-on velocity --out $O/nv_velocity
$F capture $N --drag-on launch --out $O/nv_launch
$F capture $N --drag-on launch --bounce-fog 3 --out $O/nv_fog
P="--strategy point-sprites,billboards-instanced --width 480 --height 360 --camera fixed --camera-distance 1.4 --camera-height 1.0 --camera-target 0,0.05,0 --time 0.5 --particles 300 --burst 300 --extent 1.4,0,1.4 --distribution uniform --cone 0 --speed 0,0.02,0 --speed-var 0,0,0 --accel 0,0,0 --accel-var 0,0,0 --turbulence 0 --lifetime 20 --lifetime-var 0 --gradient 0:1:0.7:0.3:0.9,1:1:0.7:0.3:0.9 --size-var 0"
$F capture $P --size-start 0.1 --size-end 0.1 --out $O/px_metres
$F capture $P --size-unit px --size-start 24 --size-end 24 --out $O/px_pixels
