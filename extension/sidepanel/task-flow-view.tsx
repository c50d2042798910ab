import { siteOf } from '../ui/use-target-tab';

/** The web-task flow. */
export function TaskFlowView(props: { tabUrl: string | undefined }) {
  return (
    <section class="card" data-testid="task-flow" aria-labelledby="task-flow-title">
      <h2 id="task-flow-title">Task</h2>
      <p class="muted">
        Deputy acts on <strong>{siteOf(props.tabUrl)}</strong> through numbered element references, inside the limits
        you set.
      </p>
    </section>
  );
}
