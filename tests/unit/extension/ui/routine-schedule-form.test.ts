import { describe, expect, it } from 'vitest';
import { ScheduleInput } from '../../../../shared/routines/routine-schedule';
import { readScheduleForm, whenText } from '../../../../extension/ui/routine-schedule-form';

const base = { routineId: 'r1', params: { item: 'mug' } };
const good = { every: 'daily', at: '', time: '07:30', weekday: '2', costCapUsd: '0.50', runsPerDay: '1' };

describe('the schedule form', () => {
  it('reads every kind of run into an input the background accepts', () => {
    for (const every of ['once', 'daily', 'weekly']) {
      const read = readScheduleForm({ ...good, every, at: '2031-06-01T09:15' }, base);
      expect(typeof read).toBe('object');
      expect(ScheduleInput.safeParse(read).success).toBe(true);
    }
    expect(readScheduleForm({ ...good, every: 'weekly' }, base)).toMatchObject({
      every: 'weekly',
      time: '07:30',
      weekday: 2,
      costCapUsd: 0.5,
      runsPerDay: 1,
      routineId: 'r1',
    });
    expect(readScheduleForm({ ...good, every: 'once', at: '2031-06-01T09:15' }, base)).toMatchObject({
      every: 'once',
      at: new Date(2031, 5, 1, 9, 15).getTime(),
    });
  });

  it('says what to fix for each bad field, over a matrix of bad values', () => {
    for (const costCapUsd of ['', 'lots', '0', '-1', '101', 'NaN', 'Infinity'])
      expect(readScheduleForm({ ...good, costCapUsd }, base)).toMatch(/cost cap is an amount in US dollars/);
    for (const runsPerDay of ['', '0', '1.5', '49', 'x'])
      expect(readScheduleForm({ ...good, runsPerDay }, base)).toMatch(/Runs per day is a whole number from 1 to 48/);
    for (const at of ['', 'tomorrow'])
      expect(readScheduleForm({ ...good, every: 'once', at }, base)).toBe('Pick the date and time it runs.');
    for (const every of ['daily', 'weekly'])
      for (const time of ['', '24:00', '7:30', '07:60'])
        expect(readScheduleForm({ ...good, every, time }, base)).toMatch(/time of day/);
  });

  it('words a schedule with its next run', () => {
    expect(whenText({ every: 'weekly', time: '08:00', weekday: 3, nextAt: null })).toBe(
      'Every Wednesday at 08:00 · no next run',
    );
    expect(whenText({ every: 'daily', time: '08:00', nextAt: new Date(2031, 0, 2, 8).getTime() })).toMatch(
      /^Daily at 08:00 · next .*2031/,
    );
  });
});
