import type { Fault } from '@solar/shared';
import { useAlarmText } from '../alarms';

/**
 * A fault's title and description in the reader's language. A fault made from an alarm keeps the alarm's
 * message key and parameters (`title_code`, `title_params`): its title reads "device or plant: message" in
 * the interface language. The stored text is what a person typed, or the fallback when there is no code.
 * A description still equal to the stored title is the same message and reads the same way.
 */
export function useFaultText(): (
  fault: Pick<Fault, 'title' | 'title_code' | 'title_params' | 'description' | 'device_name' | 'plant_name'>,
) => { title: string; description: string | null } {
  const alarmText = useAlarmText();
  return (fault) => {
    if (fault.title_code === null) return { title: fault.title, description: fault.description };
    const message = alarmText({ message: fault.title_code, message_params: fault.title_params ?? {} });
    const subject = fault.device_name ?? fault.plant_name;
    const title = subject ? `${subject}: ${message}` : message;
    return { title, description: fault.description === fault.title ? title : fault.description };
  };
}
