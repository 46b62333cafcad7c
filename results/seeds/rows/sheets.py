import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib.image as mpimg
import sys
def sheet(out, rows, title):
    n = len(rows); m = len(rows[0][1])
    fig, axes = plt.subplots(n, m, figsize=(3.2*m, 2.5*n), squeeze=False)
    for r,(label, cells) in enumerate(rows):
        for c,(cap, path) in enumerate(cells):
            ax = axes[r][c]; ax.imshow(mpimg.imread(path)); ax.set_xticks([]); ax.set_yticks([])
            ax.set_title(cap, fontsize=8)
            if c == 0: ax.set_ylabel(label, fontsize=8)
    fig.suptitle(title, fontsize=10); fig.tight_layout(); fig.savefig(out, dpi=110); plt.close(fig)
S=["billboards-instanced","gpu-stateless"]
sheet("paper_colour_by_place.png", [(s, [("by age (default)", f"age/{s}.png"), ("--color-position 0.6", f"mixed/{s}.png"), ("--color-position 1", f"place/{s}.png")]) for s in S],
      "The paper's colour by position in the flame (seed 003): default fire at 2 s")
sheet("nvidia_drag_and_bounce_fog.png", [(s, [("--drag-on velocity", f"nv_velocity/{s}.png"), ("--drag-on launch", f"nv_launch/{s}.png"), ("launch + --bounce-fog 3", f"nv_fog/{s}.png")]) for s in S],
      "NVIDIA's shader (seed 002): --gradient nvidia, drag on the launch only, fog by bounce number (t = 4 s)")
sheet("d3d9_sizes_in_pixels.png", [(s, [("0.1 m", f"px_metres/{s}.png"), ("--size-unit px, 24 px", f"px_pixels/{s}.png")]) for s in ["point-sprites","billboards-instanced"]],
      "The D3D9 tutorial's sizes in pixels (seed 000): near and far sprites alike")
