'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import styles from './history.module.css';
import type { TimeRange } from './time-scale';
import { fractionOf } from './time-scale';

/** Width of the label column left of every plot on the shared axis, and the gap on the right (px). */
export const LABEL_WIDTH = 136;
export const RIGHT_GAP = 16;

interface Tooltip {
  x: number;
  y: number;
  content: React.ReactNode;
}

interface TimeAxisContextValue {
  range: TimeRange;
  /** Shows a tooltip under an element (focus) or at a pointer position (hover). */
  showTooltip: (anchor: Element | { clientX: number; clientY: number }, content: React.ReactNode) => void;
  hideTooltip: () => void;
  /** True right after a brush: the click that ends a drag must not also act on what it lands on. */
  consumeDrag: () => boolean;
  zoomTo: (from: number, to: number) => void;
}

const TimeAxisContext = createContext<TimeAxisContextValue | null>(null);

export function useTimeAxis(): TimeAxisContextValue {
  const ctx = useContext(TimeAxisContext);
  if (!ctx) throw new Error('useTimeAxis outside <TimeAxisFrame>');
  return ctx;
}

/**
 * The frame around everything on the page's one time axis (condition lanes, event lane, replicas chart): a
 * brush (drag across any of them) zooms all of them, a crosshair runs through all of them, and one tooltip
 * shows exact values. Children mark the area whose hover readout `readout(t)` describes with `data-readout`.
 */
export function TimeAxisFrame({
  range,
  onZoom,
  readout,
  children,
}: {
  range: TimeRange;
  onZoom: (from: number, to: number) => void;
  readout?: (t: number) => React.ReactNode;
  children: React.ReactNode;
}): React.JSX.Element {
  const frame = useRef<HTMLDivElement>(null);
  const dragged = useRef(false);
  const [brush, setBrush] = useState<{ x0: number; x1: number; plotLeft: number } | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [tooltip, setTooltip] = useState<Tooltip | null>(null);

  const plot = useCallback((): { left: number; width: number; top: number; right: number } | null => {
    const r = frame.current?.getBoundingClientRect();
    if (!r) return null;
    return { left: r.left + LABEL_WIDTH, width: Math.max(1, r.width - LABEL_WIDTH - RIGHT_GAP), top: r.top, right: r.right };
  }, []);

  const timeAt = useCallback(
    (clientX: number): number | null => {
      const p = plot();
      if (!p) return null;
      const f = (clientX - p.left) / p.width;
      if (f < 0 || f > 1) return null;
      return range.from + f * (range.to - range.from);
    },
    [plot, range],
  );

  const showTooltip = useCallback<TimeAxisContextValue['showTooltip']>((anchor, content) => {
    const r = frame.current?.getBoundingClientRect();
    if (!r) return;
    if (anchor instanceof Element) {
      const a = anchor.getBoundingClientRect();
      setTooltip({ x: clampX(Math.max(a.left, r.left + LABEL_WIDTH) - r.left, r.width), y: a.bottom - r.top + 6, content });
    } else {
      setTooltip({ x: clampX(anchor.clientX - r.left + 12, r.width), y: anchor.clientY - r.top + 16, content });
    }
  }, []);
  const hideTooltip = useCallback(() => setTooltip(null), []);
  const consumeDrag = useCallback(() => {
    const was = dragged.current;
    dragged.current = false;
    return was;
  }, []);

  const brushRef = useRef<{ x0: number; x1: number; plotLeft: number } | null>(null);
  const stopDrag = useRef<(() => void) | null>(null);
  useEffect(() => () => stopDrag.current?.(), []);

  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>): void => {
    if (e.button !== 0 || e.pointerType === 'touch') return;
    const p0 = plot();
    if (timeAt(e.clientX) === null || !p0) return;
    dragged.current = false;
    brushRef.current = { x0: e.clientX, x1: e.clientX, plotLeft: p0.left };
    setBrush(brushRef.current);
    const move = (ev: PointerEvent): void => {
      if (!brushRef.current) return;
      brushRef.current = { ...brushRef.current, x1: ev.clientX };
      setBrush(brushRef.current);
    };
    const up = (ev: PointerEvent): void => {
      stopDrag.current?.();
      const b = brushRef.current;
      brushRef.current = null;
      setBrush(null);
      const p = plot();
      if (!b || !p || Math.abs(ev.clientX - b.x0) <= 4) return;
      const clamp = (x: number): number => range.from + Math.min(1, Math.max(0, (x - p.left) / p.width)) * (range.to - range.from);
      dragged.current = true;
      setTooltip(null);
      onZoom(clamp(b.x0), clamp(ev.clientX));
    };
    stopDrag.current = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      stopDrag.current = null;
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>): void => {
    const t = timeAt(e.clientX);
    const p = plot();
    setCursor(t === null || !p ? null : e.clientX - p.left);
    if (brush) return;
    const inReadout = e.target instanceof Element && e.target.closest('[data-readout]');
    if (inReadout && readout && t !== null) showTooltip(e, readout(t));
  };

  const onPointerLeave = (): void => {
    setCursor(null);
    if (!brush) setTooltip(null);
  };

  // Stable while the pointer moves, so the lanes and the chart do not re-render with the crosshair.
  const context = useMemo(
    () => ({ range, showTooltip, hideTooltip, consumeDrag, zoomTo: onZoom }),
    [range, showTooltip, hideTooltip, consumeDrag, onZoom],
  );
  const brushBox = brush ? { left: Math.min(brush.x0, brush.x1) - brush.plotLeft, width: Math.abs(brush.x1 - brush.x0) } : null;

  return (
    <TimeAxisContext.Provider value={context}>
      <div
        ref={frame}
        className={styles.frame}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerLeave={onPointerLeave}
        data-testid="time-axis-frame"
      >
        {children}
        <div className={styles.overlay} style={{ left: LABEL_WIDTH, right: RIGHT_GAP }} aria-hidden="true">
          {cursor !== null && !brush ? <div className={styles.crosshair} style={{ left: cursor }} /> : null}
          {brushBox ? <div className={styles.brush} style={{ left: Math.max(0, brushBox.left), width: brushBox.width }} /> : null}
        </div>
        {tooltip ? (
          <div className={styles.tooltip} role="tooltip" style={{ left: tooltip.x, top: tooltip.y }}>
            {tooltip.content}
          </div>
        ) : null}
      </div>
    </TimeAxisContext.Provider>
  );
}

const TOOLTIP_WIDTH = 340;
const clampX = (x: number, frameWidth: number): number => Math.max(0, Math.min(x, frameWidth - TOOLTIP_WIDTH));

/** `left`/`width` in percent of the plot for [start, end]; pieces never shrink below a visible sliver. */
export function spanStyle(start: number, end: number, range: TimeRange): React.CSSProperties {
  const l = fractionOf(start, range) * 100;
  const w = Math.max(0, fractionOf(end, range) * 100 - l);
  return { left: `min(${l}%, calc(100% - 3px))`, width: `max(${w}%, 3px)` };
}
