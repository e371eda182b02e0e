import type { FrameControls } from '../components/widget-frame';
import type { Widget } from '../model/stored-layout';

/** What every widget component receives. */
export interface WidgetProps {
  widget: Widget;
  frame: FrameControls;
  /** Height in px left for the widget's body inside its grid cell (charts size themselves to it). */
  bodyHeightPx: number;
  dark: boolean;
}
