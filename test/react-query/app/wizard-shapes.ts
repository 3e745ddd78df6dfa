/**
 * The wizard in the shapes a real one takes, each on its own event: a name typed in step 1 and
 * "Next" pressed at once (step 2 mounts while step 1's edit waits for its debounce); a name saved,
 * then step 2 mounted from a cache that keeps the draft as first loaded (staleTime 60 s); and two
 * fields of one draft on screen at once, each its own component. The test types into the fields;
 * every shape must end with the server holding every field typed.
 */
import type { SetupDraft } from "@audience-intelligence/client/react-query";
import { useState } from "react";
import { SHAPES } from "./constants.ts";
import { h, hooksA, mount, newQueryClient, waitFor } from "./harness.ts";

type Shape = keyof typeof SHAPES;

const seen: Partial<Record<Shape, SetupDraft>> = {};
/** When the name was last edited and "Next" pressed, as the page saw them. */
const marks: Partial<Record<Shape, { edit?: number; next?: number }>> = {};
const unmounts: (() => void)[] = [];

type Payload = { campaign_name?: string; total_budget?: number } | null | undefined;

function NameField({ shape }: { shape: Shape }) {
  const draft = hooksA.useSetupDraft(SHAPES[shape]);
  seen[shape] = draft;
  return h("input", {
    id: `${shape}-name`,
    value: (draft.draft as Payload)?.campaign_name ?? "",
    disabled: draft.draft === undefined,
    onChange: (event: { target: { value: string } }) => {
      marks[shape] = { ...marks[shape], edit: performance.now() };
      draft.edit({ campaign_name: event.target.value });
    },
  });
}

function BudgetField({ shape }: { shape: Shape }) {
  const draft = hooksA.useSetupDraft(SHAPES[shape]);
  seen[shape] = draft;
  const budget = (draft.draft as Payload)?.total_budget;
  return h("input", {
    id: `${shape}-budget`,
    value: budget === undefined ? "" : String(budget),
    disabled: draft.draft === undefined,
    onChange: (event: { target: { value: string } }) => draft.edit({ total_budget: Number(event.target.value) }),
  });
}

function next(shape: Shape, setStep: (step: number) => void): void {
  marks[shape] = { ...marks[shape], next: performance.now() };
  setStep(2);
}

/** Two steps: the name, then (after "Next") the budget; each step its own component. */
function Steps({ shape }: { shape: Shape }) {
  const [step, setStep] = useState(1);
  return step === 1
    ? h(
        "div",
        null,
        h(NameField, { shape }),
        h("button", { id: `${shape}-next`, onClick: () => next(shape, setStep) }, "Next"),
      )
    : h(BudgetField, { shape });
}

/** Mounts a shape; resolves once its draft is loaded. */
export async function startShape(shape: Shape): Promise<void> {
  const app =
    shape === "both"
      ? mount(newQueryClient(), [h(NameField, { shape, key: "n" }), h(BudgetField, { shape, key: "b" })])
      : mount(newQueryClient(), h(Steps, { shape }));
  unmounts.push(app.unmount);
  await waitFor("the draft to load", () => (seen[shape]?.draft === undefined ? undefined : true));
}

/** Resolves once the shape's draft shows `saved`; what it shows then, and when. */
export async function savedShape(shape: Shape) {
  const current = () => seen[shape] as SetupDraft;
  await waitFor(`${shape} saved`, () => (current().state === "saved" ? true : undefined), 8_000);
  const { edit = 0, next = Number.NaN } = marks[shape] ?? {};
  return { at: Date.now(), state: current().state, draft: current().draft, nextAfterEditMs: next - edit };
}

export function stopShapes(): void {
  for (const unmount of unmounts.splice(0)) unmount();
}
