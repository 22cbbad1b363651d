import { type Viewport, VIEWPORT_SIZES } from '../../libs/capture';

/** The viewports a release check can use, in the order they are shown. */
export const VIEWPORTS = Object.keys(VIEWPORT_SIZES) as Viewport[];
