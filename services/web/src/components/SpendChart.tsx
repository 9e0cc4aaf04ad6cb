import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface DailySpend {
  date: string;
  credits: number;
}

/**
 * Credits spent per UTC day (the overview's series) as a uPlot chart. The canvas is an image to
 * assistive technology, so its label says the total and the busiest day.
 */
export function SpendChart({ usage }: { usage: DailySpend[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const days = usage.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: Math.min(720, box.current.clientWidth || 720),
        height: 220,
        series: [{}, { label: 'Credits', stroke: '#0b57d0', fill: 'rgba(11, 87, 208, 0.15)' }],
        axes: [{}, { label: 'credits' }],
        legend: { show: false },
      },
      [days, usage.map((day) => day.credits)],
      box.current,
    );
    return () => chart.destroy();
  }, [usage]);

  const total = usage.reduce((sum, day) => sum + day.credits, 0);
  const busiest = usage.reduce<DailySpend | undefined>(
    (top, day) => (top && top.credits >= day.credits ? top : day),
    undefined,
  );
  const label =
    `Credits spent per day over ${usage.length} days: ${total} in all` +
    (busiest && busiest.credits > 0 ? `, most on ${busiest.date} (${busiest.credits})` : '');
  return <div ref={box} role="img" aria-label={label} className="chart" />;
}
