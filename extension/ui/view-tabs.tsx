import { useRef } from 'preact/hooks';

export interface ViewTab<V extends string> {
  view: V;
  label: string;
}

/** The id of a view's tab and of its panel, so each names the other (aria-controls / aria-labelledby). */
export const tabId = (view: string): string => `view-tab-${view}`;
export const panelId = (view: string): string => `view-panel-${view}`;

/**
 * The panel's views as an ARIA tab list: one tab in the Tab order (the selected one), arrow keys move between tabs
 * and select them, Home and End jump to the ends, as the WAI-ARIA tabs pattern describes.
 */
export function ViewTabs<V extends string>(props: { tabs: readonly ViewTab<V>[]; selected: V; onSelect: (view: V) => void; label: string }) {
  const list = useRef<HTMLDivElement>(null);
  const move = (from: number, to: number): void => {
    const count = props.tabs.length;
    const index = (to + count) % count;
    const next = props.tabs[index];
    if (!next || index === from) return;
    props.onSelect(next.view);
    list.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[index]?.focus();
  };
  return (
    <div ref={list} class="tabs" role="tablist" aria-label={props.label}>
      {props.tabs.map((entry, index) => {
        const selected = entry.view === props.selected;
        return (
          <button
            key={entry.view}
            id={tabId(entry.view)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId(entry.view)}
            tabIndex={selected ? 0 : -1}
            data-testid={`flow-${entry.view}`}
            onClick={() => props.onSelect(entry.view)}
            onKeyDown={(event) => {
              const to = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? props.tabs.length - 1 : null;
              if (to === null) return;
              event.preventDefault();
              move(index, to);
            }}
          >
            {entry.label}
          </button>
        );
      })}
    </div>
  );
}
