/**
 * Who owns the model's colours right now (application.md §4 "Revision comparison": "Toggling object
 * colouring and comparison colouring is mutually exclusive"). Comparison, colouring by quantities and
 * colouring by approval status each recolour parts through the engine; only one may do so at a time.
 * A feature claims the appearance with a release function that restores what it changed; a later claim by
 * another feature calls that release first, so the user's last choice wins and nothing is left half-coloured.
 */
import { proxy, ref } from 'valtio';

/** The features that recolour the model. */
export type AppearanceOwner = 'comparison' | 'colouring' | 'status';

export const appearanceStore = proxy({
  /** The feature whose colours are shown, or null for the model's own type colours. */
  owner: null as AppearanceOwner | null,
  release: ref({ fn: null as (() => void) | null }),
});

/**
 * Claims the model's appearance for `owner`. The previous owner's release runs first (it restores the
 * colours and opacities it set and resets its own state). `release` is called later when another feature
 * claims, or by `releaseAppearance(owner)`.
 */
export function claimAppearance(owner: AppearanceOwner, release: () => void): void {
  const prev = appearanceStore.release.fn;
  appearanceStore.release.fn = null;
  if (prev && appearanceStore.owner !== owner) prev();
  appearanceStore.owner = owner;
  appearanceStore.release.fn = release;
}

/** Gives the appearance back when `owner` holds it (runs its release); a no-op otherwise. */
export function releaseAppearance(owner: AppearanceOwner): void {
  if (appearanceStore.owner !== owner) return;
  const fn = appearanceStore.release.fn;
  appearanceStore.owner = null;
  appearanceStore.release.fn = null;
  fn?.();
}
