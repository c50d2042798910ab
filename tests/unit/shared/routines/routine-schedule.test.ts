import { describe, expect, it } from 'vitest';
import { ScheduleInput, dayOf, nextRunAt, takeRun } from '../../../../shared/routines/routine-schedule';

const at = (y: number, m: number, d: number, h = 0, min = 0): number => new Date(y, m - 1, d, h, min).getTime();

describe('routine schedules', () => {
  it('the next run: daily later today or tomorrow, weekly on its day, once only in the future', () => {
    // A matrix over the hours of a day and the days of a week (2026-11-29 is a Sunday).
    for (let day = 0; day < 7; day += 1) {
      for (let hour = 0; hour < 24; hour += 5) {
        const now = at(2026, 11, 29 + day, hour, 10);
        const daily = nextRunAt({ every: 'daily', time: '07:30' }, now)!;
        expect(new Date(daily).getHours() * 60 + new Date(daily).getMinutes()).toBe(450);
        expect(daily).toBeGreaterThan(now);
        expect(daily - now).toBeLessThanOrEqual(24 * 3600_000);
        const weekly = nextRunAt({ every: 'weekly', time: '07:30', weekday: 3 }, now)!;
        expect(new Date(weekly).getDay()).toBe(3);
        expect(weekly).toBeGreaterThan(now);
        expect(weekly - now).toBeLessThanOrEqual(7 * 24 * 3600_000);
      }
    }
    expect(nextRunAt({ every: 'once', at: 5000 }, 4000)).toBe(5000);
    expect(nextRunAt({ every: 'once', at: 5000 }, 6000)).toBeNull();
  });

  it('the runs-per-day cap counts by local day and starts again the next day', () => {
    const now = at(2026, 11, 29, 9);
    expect(takeRun({ runs: { day: '', count: 0 }, runsPerDay: 2 }, now)).toEqual({ allowed: true, runs: { day: dayOf(now), count: 1 } });
    expect(takeRun({ runs: { day: dayOf(now), count: 2 }, runsPerDay: 2 }, now).allowed).toBe(false);
    expect(takeRun({ runs: { day: dayOf(now - 24 * 3600_000), count: 2 }, runsPerDay: 2 }, now)).toEqual({ allowed: true, runs: { day: dayOf(now), count: 1 } });
  });

  it('bad input says what is missing', () => {
    const issues = (input: unknown): string => (ScheduleInput.safeParse(input).error?.issues ?? []).map((i) => i.message).join(' | ');
    expect(issues({ every: 'daily' })).toMatch(/either a routine or a task/);
    expect(issues({ routineId: 'r', every: 'daily' })).toMatch(/time of day/);
    expect(issues({ routineId: 'r', every: 'weekly', time: '7:30' })).toMatch(/HH:MM/);
    expect(issues({ task: 'Check the weather', every: 'once', at: 1 })).toMatch(/address it starts on/);
    expect(ScheduleInput.safeParse({ routineId: 'r', every: 'weekly', time: '07:30', weekday: 1 }).success).toBe(true);
  });
});
